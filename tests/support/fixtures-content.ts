import { createBucket, type Bucket } from "../../server/content/buckets";
import type { Db } from "../../server/db/client";

let counter = 0;
/** A bucket with a unique slug; override any field. */
export function createContentBucket(db: Db, overrides: Partial<Omit<Bucket, "id">> = {}): Promise<Bucket> {
  counter += 1;
  const slug = overrides.slug ?? `bucket-${counter}-${Date.now().toString(36)}`;
  return createBucket(db, {
    slug,
    name: overrides.name ?? `Bucket ${counter}`,
    singleton: false,
    private: false,
    collectionName: slug,
    locales: ["nl", "en"],
    jsonSchema: { type: "object", properties: { title: { type: "string" } } },
    ...overrides,
  });
}

/** Fields of an HTML form as a submitted form body would carry them (inputs with a value). */
export function inputValue(html: string, name: string): string | null {
  const escaped = name.replace(/[.[\]]/g, (c) => `\\${c}`);
  const match = new RegExp(`<input[^>]*name="${escaped}"[^>]*>`).exec(html);
  if (!match) return null;
  return /value="([^"]*)"/.exec(match[0])?.[1] ?? "";
}
