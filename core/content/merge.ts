import { fieldKind } from "@core/form/field-kind";
import { MERGE_CHOICE_FIELD } from "@core/form/resolve";
import { isPlainObject } from "@core/plain-object";
import type { JsonSchema } from "@core/schema/normalize";

/*
 * A three-way merge of a document, field by field as its bucket's schema shapes it: the version an editor loaded
 * (base), the newest version someone else saved meanwhile (theirs) and what the editor posts (mine). A side that
 * left a value as it was in base takes the other side's. Where both changed the same value differently, it merges
 * inside the value where the schema says how: an object (a section, a translated field's locales, a disableable
 * string's parts) by property, a list of texts by entry id. Any other value (other lists, references, media, tags,
 * scalars) is whole: both changed it, it is a conflict. Used by the edit form and by the JSON API's `merge=true`.
 */

export type FieldPath = readonly string[];

/** A conflict's choice in the edit form: `__mergeChoice.<field name>` = `mine` or `theirs`. */
export const MERGE_CHOICE_PREFIX = `${MERGE_CHOICE_FIELD}.`;

export interface MergeConflict {
  path: FieldPath;
  mine: unknown;
  theirs: unknown;
}

export interface MergeOutcome {
  /** The merged document; on conflicts, with the editor's values there. */
  merged: Record<string, unknown>;
  /** Values both sides changed differently: nothing is saved until the editor chooses. */
  conflicts: MergeConflict[];
  /** Where the other side's change was taken (the editor had left the value as loaded). */
  fromTheirs: FieldPath[];
}

/** The fields a stale form save and the newest version both changed, as the re-rendered form shows them. */
export interface MergeConflicts {
  /** Who saved the newest version (null: an API client, or a deleted account). */
  author: string | null;
  fields: Array<{ name: string; label: string; mine: string; theirs: string }>;
}

/** Structural equality of JSON values; key order does not matter, a missing key equals an undefined one. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => sameJson(item, b[index]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) if (!sameJson(a[key], b[key])) return false;
    return true;
  }
  return false;
}

interface Collected {
  conflicts: MergeConflict[];
  fromTheirs: FieldPath[];
}

/** The property schemas of an object node, or null when the schema does not merge inside it. */
function mergeableProperties(schema: JsonSchema | undefined): Record<string, JsonSchema> | null {
  if (!schema || !isPlainObject(schema.properties)) return null;
  const kind = fieldKind(schema);
  // A reference or media value held in an object-typed schema, an inline sub-form: whole values.
  if (kind !== null && kind !== "object" && kind !== "translateObject" && kind !== "disableable") return null;
  return schema.properties as Record<string, JsonSchema>;
}

const isTexts = (schema: JsonSchema | undefined) => schema !== undefined && fieldKind(schema) === "texts";

/** Where two values differ, as precisely as the schema merges: the changed properties of an object, else the value. */
function changedPaths(schema: JsonSchema | undefined, before: unknown, after: unknown, path: FieldPath): FieldPath[] {
  const properties = mergeableProperties(schema);
  if (!properties || !isPlainObject(before) || !isPlainObject(after)) return [path];
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((key) => !sameJson(before[key], after[key]))
    .flatMap((key) => changedPaths(properties[key], before[key], after[key], [...path, key]));
}

function mergeValue(
  schema: JsonSchema | undefined,
  base: unknown,
  theirs: unknown,
  mine: unknown,
  path: FieldPath,
  out: Collected,
): unknown {
  if (sameJson(mine, theirs)) return mine;
  if (sameJson(mine, base)) {
    out.fromTheirs.push(...changedPaths(schema, base, theirs, path));
    return theirs;
  }
  if (sameJson(theirs, base)) return mine;
  const properties = mergeableProperties(schema);
  if (properties && isPlainObject(mine) && isPlainObject(theirs) && (base === undefined || isPlainObject(base)))
    return mergeObject(properties, base ?? {}, theirs, mine, path, out);
  if (isTexts(schema) && Array.isArray(mine) && Array.isArray(theirs) && (base === undefined || Array.isArray(base))) {
    const merged = mergeTexts(base ?? [], theirs, mine);
    if (merged) {
      out.fromTheirs.push(path);
      return merged;
    }
  }
  out.conflicts.push({ path, mine, theirs });
  return mine;
}

function mergeObject(
  properties: Record<string, JsonSchema>,
  base: Record<string, unknown>,
  theirs: Record<string, unknown>,
  mine: Record<string, unknown>,
  path: FieldPath,
  out: Collected,
): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  const keys = new Set([...Object.keys(base), ...Object.keys(theirs), ...Object.keys(mine)]);
  for (const key of keys) {
    const value = mergeValue(properties[key], base[key], theirs[key], mine[key], [...path, key], out);
    if (value !== undefined) merged[key] = value;
  }
  return merged;
}

type TextsEntry = Record<string, unknown> & { id?: unknown };

const byId = (entries: readonly unknown[]) =>
  new Map(entries.filter(isPlainObject).map((entry) => [String((entry as TextsEntry).id), entry as TextsEntry]));

/**
 * A list of texts merged by entry id: each side's added, changed and removed entries applied, in the editor's order
 * with the other side's new entries after it; null when both changed (or one changed and the other removed) the
 * same entry, or an entry has no id.
 */
function mergeTexts(base: readonly unknown[], theirs: readonly unknown[], mine: readonly unknown[]): unknown[] | null {
  if (![base, theirs, mine].every((list) => list.every((entry) => isPlainObject(entry) && typeof entry.id === "string"))) return null;
  const [baseById, theirsById, mineById] = [byId(base), byId(theirs), byId(mine)];
  const result = new Map<string, TextsEntry>();
  const ids = [...mineById.keys(), ...[...theirsById.keys()].filter((id) => !mineById.has(id))];
  for (const id of new Set([...ids, ...baseById.keys()])) {
    const [was, their, my] = [baseById.get(id), theirsById.get(id), mineById.get(id)];
    let value: TextsEntry | undefined;
    if (sameJson(my, their)) value = my;
    else if (sameJson(my, was)) value = their;
    else if (sameJson(their, was)) value = my;
    else return null;
    if (value) result.set(id, value);
  }
  return ids.filter((id) => result.has(id)).map((id) => result.get(id));
}

/** Merges a document three ways following its bucket's (normalised) schema. */
export function mergeDocuments(
  schema: JsonSchema,
  base: Record<string, unknown>,
  theirs: Record<string, unknown>,
  mine: Record<string, unknown>,
): MergeOutcome {
  const out: Collected = { conflicts: [], fromTheirs: [] };
  const properties = isPlainObject(schema.properties) ? (schema.properties as Record<string, JsonSchema>) : {};
  const merged = mergeObject(properties, base, theirs, mine, [], out);
  return { merged, ...out };
}

/** The form field name of a path (`title.nl`, `section.caption`): Conform's dotted names. */
export const fieldName = (path: FieldPath) => path.join(".");

/** A path shown to people: the fields' titles, a translated field's locale in brackets ("Title (nl)"). */
export function fieldLabel(schema: JsonSchema, path: FieldPath): string {
  const parts: string[] = [];
  let node: JsonSchema | undefined = schema;
  for (const key of path) {
    const parent: JsonSchema | undefined = node;
    node = isPlainObject(parent?.properties) ? (parent.properties as Record<string, JsonSchema>)[key] : undefined;
    if (parent && fieldKind(parent) === "translateObject") {
      parts[parts.length - 1] = `${parts.at(-1) ?? ""} (${key})`;
      continue;
    }
    parts.push(typeof node?.title === "string" && node.title ? node.title : key);
  }
  return parts.join(" › ");
}
