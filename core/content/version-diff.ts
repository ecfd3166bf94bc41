import { mediaKindOfSchema } from "@core/form/field-kind";
import { isCalendarDate } from "@core/calendar-date";
import { isPlainObject } from "@core/plain-object";
import { TRANSLATE_OBJECT_RENDERER, type JsonSchema } from "@core/schema/normalize";
import { propertiesOf } from "@core/schema/walk";

/*
 * The field-by-field difference of two versions of a document, walked along the bucket's (normalised) schema:
 * each changed leaf is one row, labelled by the field titles on its way (a translated field's locale is its own
 * step, a list's item its number), its values typed so that a page can show media as thumbnails and references
 * by the referenced document's title. Data the schema no longer describes is compared by its keys.
 */

/** One step of a row's label: a field (its title, else its name; `locale` for a translated field's language) or a list item. */
export type DiffLabel = { kind: "field"; title: string; locale?: true } | { kind: "item"; index: number };

export type DiffValue =
  | { kind: "empty" }
  | { kind: "text"; text: string }
  | { kind: "boolean"; value: boolean }
  /** A `format: "date"` (YYYY-MM-DD, `dateOnly`) or `"date-time"` value, for the reader's language. */
  | { kind: "date"; iso: string; dateOnly: boolean }
  | { kind: "media"; media: "image" | "video" | "file"; contentId: string }
  | { kind: "reference"; collection: string; contentId: string };

export interface DiffRow {
  /** The form field name of the value (`rooms[1].name`, `title.nl`). */
  name: string;
  labels: DiffLabel[];
  change: "added" | "removed" | "changed";
  before: DiffValue;
  after: DiffValue;
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === "";

/** JSON with its object keys sorted: two values are the same when their texts are. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isPlainObject(value)) {
    return `{${Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

const sameValue = (a: unknown, b: unknown) => (isEmpty(a) && isEmpty(b)) || canonical(a) === canonical(b);

const collectionOf = (schema: JsonSchema | null) =>
  schema && typeof schema._ref === "string" && !schema._ref.startsWith("b-") ? schema._ref : null;

/** A well-formed date or date-time of a field with that format (anything else shows as the text it is). */
function dateValue(schema: JsonSchema, value: unknown): DiffValue | null {
  if (typeof value !== "string") return null;
  const dateOnly = schema.format === "date";
  if (dateOnly ? !isCalendarDate(value) : schema.format !== "date-time" || Number.isNaN(Date.parse(value))) return null;
  return { kind: "date", iso: dateOnly ? `${value}T00:00:00Z` : value, dateOnly };
}

/** A leaf value as the diff shows it. */
function leafValue(schema: JsonSchema | null, value: unknown): DiffValue {
  if (isEmpty(value)) return { kind: "empty" };
  const media = schema ? mediaKindOfSchema(schema) : null;
  if (media && typeof value === "string") return { kind: "media", media, contentId: value };
  const collection = collectionOf(schema);
  if (collection && typeof value === "string") return { kind: "reference", collection, contentId: value };
  if (typeof value === "boolean") return { kind: "boolean", value };
  const date = schema ? dateValue(schema, value) : null;
  if (date) return date;
  if (typeof value === "string") return { kind: "text", text: value };
  if (typeof value === "number") return { kind: "text", text: String(value) };
  return { kind: "text", text: JSON.stringify(value) };
}

const childName = (parent: string, key: string | number) =>
  typeof key === "number" ? `${parent}[${key}]` : parent ? `${parent}.${key}` : key;

const isContainer = (value: unknown) => isEmpty(value) || isPlainObject(value);
const isList = (value: unknown) => isEmpty(value) || Array.isArray(value);

/**
 * A document as a reader sees it (`asShown`): a disableable value (`x-disableable-bool`, `{ value, disabled }`) is
 * left out when disabled, else shown as its value under the field's own label.
 */
function shownDisableable(schema: JsonSchema | null, value: unknown): { value: unknown; schema: JsonSchema | null } | null {
  if (!schema || schema["x-disableable-bool"] !== true || !isPlainObject(value)) return null;
  const inner = propertiesOf(schema).value;
  return { value: value.disabled === true ? undefined : value.value, schema: isPlainObject(inner) ? inner : null };
}

function walk(
  schema: JsonSchema | null,
  before: unknown,
  after: unknown,
  name: string,
  labels: DiffLabel[],
  out: DiffRow[],
  depth: number,
  asShown = false,
): void {
  if (sameValue(before, after)) return;
  const shown = asShown && before === undefined ? shownDisableable(schema, after) : null;
  if (shown) {
    walk(shown.schema, undefined, shown.value, name, labels, out, depth + 1, asShown);
    return;
  }
  const leaf = schema !== null && (mediaKindOfSchema(schema) !== null || collectionOf(schema) !== null);
  if (!leaf && depth < 64 && isContainer(before) && isContainer(after) && (isPlainObject(before) || isPlainObject(after))) {
    const properties = schema ? propertiesOf(schema) : {};
    const a = isPlainObject(before) ? before : {};
    const b = isPlainObject(after) ? after : {};
    const described = Object.keys(properties);
    const others = [...new Set([...Object.keys(a), ...Object.keys(b)])]
      .filter((key) => !Object.prototype.hasOwnProperty.call(properties, key))
      .sort();
    const translated = schema?.renderer === TRANSLATE_OBJECT_RENDERER;
    for (const key of [...described, ...others]) {
      const child = Object.prototype.hasOwnProperty.call(properties, key) && isPlainObject(properties[key]) ? properties[key] : null;
      const title = child && typeof child.title === "string" && child.title.trim() ? child.title : key;
      const label: DiffLabel = translated ? { kind: "field", title: key, locale: true } : { kind: "field", title };
      walk(child, a[key], b[key], childName(name, key), [...labels, label], out, depth + 1, asShown);
    }
    return;
  }
  if (!leaf && depth < 64 && isList(before) && isList(after)) {
    const items = schema && isPlainObject(schema.items) ? schema.items : null;
    const a = Array.isArray(before) ? before : [];
    const b = Array.isArray(after) ? after : [];
    for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
      walk(items, a[index], b[index], childName(name, index), [...labels, { kind: "item", index }], out, depth + 1, asShown);
    }
    return;
  }
  const from = leafValue(schema, before);
  const to = leafValue(schema, after);
  out.push({
    name,
    labels,
    change: from.kind === "empty" ? "added" : to.kind === "empty" ? "removed" : "changed",
    before: from,
    after: to,
  });
}

/** What changed from `before` to `after`, one row per changed value, in the schema's order. */
export function diffVersions(schema: JsonSchema, before: unknown, after: unknown): DiffRow[] {
  const out: DiffRow[] = [];
  walk(schema, before, after, "", [], out, 0);
  return out;
}

/** One filled value of a document: its form field name, its label along the schema and the value. */
export interface DocumentRow {
  name: string;
  labels: DiffLabel[];
  value: DiffValue;
}

/**
 * A document's filled values as a reader sees them, one row per leaf in the schema's order (a shareable preview):
 * the same walk as a comparison with an empty document, a disabled value left out.
 */
export function documentRows(schema: JsonSchema, data: unknown): DocumentRow[] {
  const out: DiffRow[] = [];
  walk(schema, undefined, data, "", [], out, 0, true);
  return out.map(({ name, labels, after }) => ({ name, labels, value: after }));
}

/** The media and the referenced documents the rows show (to look up their thumbnails and titles). */
export function diffTargets(rows: ReadonlyArray<Pick<DiffRow, "before" | "after">>) {
  const media = new Set<string>();
  const references = new Map<string, Set<string>>();
  for (const row of rows) {
    for (const value of [row.before, row.after]) {
      if (value.kind === "media") media.add(value.contentId);
      if (value.kind === "reference") {
        const ids = references.get(value.collection) ?? new Set<string>();
        ids.add(value.contentId);
        references.set(value.collection, ids);
      }
    }
  }
  return { media, references };
}
