import type { Queryable } from "@server/db/client";
import { createContent, saveVersion } from "@server/content/store";
import { publishDocument } from "@server/content/publishing";
import type { Db } from "@server/db/client";

/*
 * Documents made straight in the store for the delivery API's tests, published as an editor would (docs/publishing.md):
 * the delivery API serves published versions only. A test of a draft uses the store's createContent/saveVersion.
 */

export const TEST_PUBLISHER = { id: null, name: "Test publisher" };

async function bucketFor(db: Queryable, bucketId: string) {
  const { rows } = await db.query<{ id: string; slug: string; jsonSchema: Record<string, unknown>; locales: string[] }>(
    `SELECT id, slug, json_schema AS "jsonSchema", locales FROM buckets WHERE id = $1`,
    [bucketId],
  );
  if (!rows[0]) throw new Error(`no bucket ${bucketId}`);
  return rows[0];
}

/** Publishes the document's newest version. */
export async function publishNewest(db: Db, bucketId: string, contentId: string): Promise<void> {
  await publishDocument(db, TEST_PUBLISHER, { bucket: await bucketFor(db, bucketId), contentId });
}

/** createContent, then published. */
export async function createPublished(db: Db, ...args: Parameters<typeof createContent> extends [unknown, ...infer Rest] ? Rest : never) {
  const version = await createContent(db, ...args);
  await publishNewest(db, args[0], version.contentId);
  return version;
}

/** saveVersion, then published. */
export async function savePublished(db: Db, input: Parameters<typeof saveVersion>[1]) {
  const version = await saveVersion(db, input);
  await publishNewest(db, input.bucketId, version.contentId);
  return version;
}
