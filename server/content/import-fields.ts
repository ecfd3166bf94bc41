import { mediaKindOfSchema } from "@core/form/field-kind";
import { collectionOfSchema } from "@core/content/references";
import type { MediaKind } from "@core/media/bounds";
import type { JsonSchema } from "@core/schema/normalize";
import { isPlainObject } from "@core/plain-object";

/*
 * The cells of an import that name something instead of holding it (issue 34): a media field's file in the ZIP or a
 * media id, a reference field's document by id or title. Found along the bucket's schema at any depth, in a row's
 * data, so CSV, JSON and NDJSON rows are read alike; a list of them in a CSV cell is a JSON array or its items
 * separated by "|".
 */

/** A named value in a row: where it is (a path in the data and the field's name as the editor spells it) and what. */
export type NamedValue = { path: Array<string | number>; name: string; text: string } & (
  { role: "media"; kind: MediaKind; property: JsonSchema } | { role: "reference"; collection: string }
);

type Role = { role: "media"; kind: MediaKind; property: JsonSchema } | { role: "reference"; collection: string };

function roleOf(node: JsonSchema): Role | null {
  const kind = mediaKindOfSchema(node);
  if (kind) return { role: "media", kind, property: node };
  const collection = collectionOfSchema(node);
  return collection ? { role: "reference", collection } : null;
}

/** Every non-empty text a media or reference field of the data holds, in the data's order. */
export function namedValues(schema: unknown, value: unknown, path: Array<string | number> = [], name = "", out: NamedValue[] = []) {
  if (!isPlainObject(schema) || path.length > 64) return out;
  const node = schema as JsonSchema;
  const role = roleOf(node);
  if (role) {
    if (typeof value === "string" && value.trim()) out.push({ ...role, path, name, text: value.trim() });
    return out;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) namedValues(node.items, item, [...path, index], `${name}[${index}]`, out);
  } else if (isPlainObject(value) && isPlainObject(node.properties)) {
    for (const [key, child] of Object.entries(node.properties)) {
      if (Object.hasOwn(value, key)) namedValues(child, value[key], [...path, key], name ? `${name}.${key}` : key, out);
    }
  }
  return out;
}

/** Puts a value where a NamedValue was found (the data is the row's own, made for this import). */
export function replaceAt(data: Record<string, unknown>, path: ReadonlyArray<string | number>, value: unknown): void {
  let holder: unknown = data;
  for (const step of path.slice(0, -1)) holder = (holder as Record<string | number, unknown>)[step];
  const last = path[path.length - 1];
  if (last !== undefined) (holder as Record<string | number, unknown>)[last] = value;
}

/** What a top-level property names: media, references, or neither (the mapping's hint). */
export function columnRole(schema: unknown, property: string): "media" | "reference" | null {
  const properties = isPlainObject(schema) && isPlainObject(schema.properties) ? schema.properties : {};
  const node = properties[property];
  if (!isPlainObject(node)) return null;
  const own = roleOf(node) ?? (node.type === "array" && isPlainObject(node.items) ? roleOf(node.items) : null);
  return own?.role ?? null;
}

/**
 * A CSV cell of a list of media or references written as "a|b" (not a JSON array): the JSON array of its items, so the
 * column reads it as it reads any list.
 */
export function listCellAsJson(schema: unknown, property: string, text: string): string {
  const properties = isPlainObject(schema) && isPlainObject(schema.properties) ? schema.properties : {};
  const node = properties[property];
  if (!isPlainObject(node) || node.type !== "array" || !isPlainObject(node.items) || !roleOf(node.items)) return text;
  if (text.trim().startsWith("[")) return text;
  return JSON.stringify(
    text
      .split("|")
      .map((item) => item.trim())
      .filter(Boolean),
  );
}
