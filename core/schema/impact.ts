import { z } from "zod";
import type { Message } from "@core/messages";
import { isPlainObject } from "@core/plain-object";
import type { JsonSchema } from "./normalize";
import { MAX_SCHEMA_NESTING, nestingOffset } from "./nesting";
import { schemaNodes } from "./walk";

/*
 * The impact preview of a schema change (issue 11), the part shared by the server (server/content/schema-impact.ts
 * computes it), the browser (app/components/schema-impact/ renders it and reads its stream) and the bucket page's
 * save (a change that breaks documents needs the admin's confirmation).
 */

/** The form field that carries the proposed schema (JSON text), on the impact page, its stream and the bucket form. */
export const SCHEMA_FIELD = "jsonSchema";
/** The checkbox that confirms saving a schema that breaks documents ("on" when checked). */
export const CONFIRM_BREAKING_FIELD = "confirmBreaking";
/** The media type of the impact stream: one JSON object per line (ImpactStreamLine). */
export const IMPACT_STREAM_TYPE = "application/x-ndjson";
/** How many documents each group and each property change links to. */
export const IMPACT_SAMPLE_SIZE = 5;

/** A document the report links to: its latest version's edit page. */
export interface ImpactDocument {
  contentId: string;
  /** The document's title (the schema's title key, as in the overview); "" when it has none. */
  title: string;
  /** /b/{slug}/{contentId}/latest (/b/{slug}/edit for a singleton bucket). */
  href: string;
}

/** The documents that would no longer validate with one message under one property. */
export interface ImpactGroup {
  /**
   * The form field the message shows under, list indexes left out (`rooms[].title.nl`), so that the same problem in
   * every row of a list is one group; "" is the document as a whole.
   */
  property: string;
  /** The message an editor will see, in the installation's default locale (the editor's validation messages). */
  message: string;
  /** Documents with this message under this property (each counted once). */
  count: number;
  /** The first few of them (in contentId order). */
  documents: ImpactDocument[];
}

/**
 * A property of the current schema that the new one no longer has. "renamed" is a guess: a removed and an added
 * property under the same parent with the same shape (type, format, renderer, reference, bounds and children;
 * titles and other presentation keywords do not count); see compareSchemaProperties.
 */
export interface ImpactPropertyChange {
  kind: "removed" | "renamed";
  /** The property's path in the current schema (`rooms[].title`). */
  property: string;
  /** For a rename, the new property's path. */
  renamedTo?: string;
  /** Documents that hold a value there (something other than null, "", [] or {} at some depth). */
  count: number;
  documents: ImpactDocument[];
}

export interface ImpactReport {
  bucketSlug: string;
  /** Documents in the bucket (latest versions), all checked unless `problems` is not empty. */
  checked: number;
  /** Documents whose latest version fails the new schema. */
  failing: number;
  /** Largest first (then by property and message). */
  groups: ImpactGroup[];
  changes: ImpactPropertyChange[];
  /** Why the new schema cannot be used at all (normalisation or compilation errors); nothing was checked then. */
  problems: string[];
  durationMs: number;
}

export interface ImpactProgress {
  checked: number;
  total: number;
}

/**
 * One line of the impact stream: `progress` lines (the first one before any document is read), then one `report`
 * line, or one `error` line with the refusal in the admin's language.
 */
export type ImpactStreamLine =
  ({ type: "progress" } & ImpactProgress) | { type: "report"; report: ImpactReport } | { type: "error"; status: number; message: string };

/** Whether saving the schema needs the admin's explicit confirmation: documents would break or lose a value. */
export function impactNeedsConfirmation(report: Pick<ImpactReport, "failing" | "changes">): boolean {
  return report.failing > 0 || report.changes.some((change) => change.count > 0);
}

/**
 * The confirmation checkbox as a field of a form's zod schema (spread it into z.object): Conform turns a checked box
 * ("on") into true, an unchecked one (sent as nothing) into undefined.
 */
export const confirmBreakingShape = { [CONFIRM_BREAKING_FIELD]: z.boolean().optional() } as const;

/** Whether a posted form confirmed a breaking change (the CONFIRM_BREAKING_FIELD checkbox). */
export function confirmedBreaking(form: FormData | URLSearchParams): boolean {
  const value = form.get(CONFIRM_BREAKING_FIELD);
  return value === "on" || value === "true";
}

/** A form field name without its list indexes: `rooms[3].title.nl` → `rooms[].title.nl`. */
export const generalizeFieldName = (name: string): string => name.replaceAll(/\[\d+\]/g, "[]");

/** A path of schemaNodes (`["rooms", 0, "title"]`) as it is shown: `rooms[].title`. */
export function schemaPathText(path: ReadonlyArray<string | number>): string {
  let text = "";
  for (const segment of path) text = typeof segment === "number" ? `${text}[]` : text ? `${text}.${segment}` : segment;
  return text;
}

/** Keywords that change how a property looks, not what it holds: a rename keeps its shape when only these differ. */
const PRESENTATION_KEYWORDS = new Set([
  "title",
  "description",
  "note",
  "placeholder",
  "labels",
  "button-text",
  "add-button",
  "append-index-to-title",
  "x-indent",
  "x-collapsible",
  "inline",
  "examples",
  "default",
  "$comment",
  "enableButton",
  "disableButton",
]);

/** A property's shape as text: the schema without presentation keywords, keys sorted. */
export function shapeOf(node: unknown): string {
  const strip = (value: unknown, propertyNames = false): unknown => {
    if (Array.isArray(value)) return value.map((item) => strip(item));
    if (!isPlainObject(value)) return value;
    const keys = Object.keys(value)
      .filter((key) => propertyNames || !PRESENTATION_KEYWORDS.has(key))
      .sort();
    return Object.fromEntries(keys.map((key) => [key, strip(value[key], !propertyNames && key === "properties")]));
  };
  return JSON.stringify(strip(node));
}

/** A property path in segments: names, and null for "every row of the list". */
export type PropertyPath = ReadonlyArray<string | null>;

interface SchemaProperty {
  text: string;
  path: PropertyPath;
  parent: string;
  shape: string;
  title?: string;
}

/** The properties of a (normalised) schema, depth first, keyed by their path text; the root is left out. */
function propertiesByPath(schema: JsonSchema): Map<string, SchemaProperty> {
  const found = new Map<string, SchemaProperty>();
  for (const { node, path } of schemaNodes(schema)) {
    if (path.length === 0) continue;
    const segments = path.map((segment) => (typeof segment === "number" ? null : segment));
    // A list's rows are not a property of their own: their properties are (`rooms[].title`).
    if (segments[segments.length - 1] === null) continue;
    let parent = path.length - 1;
    while (parent > 0 && typeof path[parent - 1] === "number") parent -= 1;
    const text = schemaPathText(path);
    const title = typeof node.title === "string" ? node.title : undefined;
    found.set(text, {
      text,
      path: segments,
      parent: schemaPathText(path.slice(0, parent)),
      shape: shapeOf(node),
      ...(title !== undefined ? { title } : {}),
    });
  }
  return found;
}

export interface SchemaPropertyChange {
  kind: "removed" | "renamed";
  property: string;
  path: PropertyPath;
  renamedTo?: string;
}

/** How alike two properties' names and titles are: the same title counts most, then a common start of the name. */
function likeness(removed: SchemaProperty, added: SchemaProperty): number {
  const name = (property: SchemaProperty) => (property.path[property.path.length - 1] ?? "").toLowerCase();
  const [a, b] = [name(removed), name(added)];
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common += 1;
  const sameTitle = removed.title !== undefined && removed.title === added.title;
  return (sameTitle ? 1000 : 0) + common;
}

/**
 * The properties of `before` that `after` no longer has (both normalised), the outermost only (a removed object's
 * own properties are not listed again). A removed property counts as "renamed" when an added property under the
 * same parent has the same shape (shapeOf): the only such candidate, or among several the one with the same title
 * or, failing that, the longest common start of the name; candidates nothing tells apart stay "removed".
 */
export function compareSchemaProperties(before: JsonSchema, after: JsonSchema): SchemaPropertyChange[] {
  const old = propertiesByPath(before);
  const next = propertiesByPath(after);
  const outermost = (from: Map<string, SchemaProperty>, other: Map<string, SchemaProperty>) =>
    [...from.values()].filter((property) => !other.has(property.text) && (property.parent === "" || other.has(property.parent)));
  const removed = outermost(old, next);
  const added = outermost(next, old);
  const renamedTo = new Map<SchemaProperty, SchemaProperty>();
  for (const target of added) {
    const candidates = removed.filter(
      (property) => !renamedTo.has(property) && property.parent === target.parent && property.shape === target.shape,
    );
    const scored = candidates.map((property) => ({ property, score: likeness(property, target) })).sort((x, y) => y.score - x.score);
    const [best, second] = scored;
    if (best && (!second || best.score > second.score)) renamedTo.set(best.property, target);
  }
  return removed.map((property) => {
    const target = renamedTo.get(property);
    return target
      ? { kind: "renamed" as const, property: property.text, path: property.path, renamedTo: target.text }
      : { kind: "removed" as const, property: property.text, path: property.path };
  });
}

/** Whether a value holds something: a number or boolean, a non-empty text, at any depth of lists and objects. */
export function holdsValue(value: unknown, depth = 0): boolean {
  if (value === null || value === undefined || depth > 64) return false;
  if (typeof value === "string") return value.trim() !== "";
  if (typeof value === "number" || typeof value === "boolean") return true;
  if (Array.isArray(value)) return value.some((item) => holdsValue(item, depth + 1));
  if (isPlainObject(value)) return Object.values(value).some((item) => holdsValue(item, depth + 1));
  return false;
}

/** Whether a document holds a value at a property path (in any row of its lists). */
export function holdsValueAt(data: unknown, path: PropertyPath, from = 0): boolean {
  if (from === path.length) return holdsValue(data);
  const segment = path[from];
  if (segment === null) return Array.isArray(data) && data.some((row) => holdsValueAt(row, path, from + 1));
  if (!isPlainObject(data) || segment === undefined || !Object.prototype.hasOwnProperty.call(data, segment)) return false;
  return holdsValueAt(data[segment], path, from + 1);
}

/** The proposed schema of a form post, or the message that refuses it (the bucket page's editor checks it further). */
export function readSchemaText(text: unknown): { ok: true; schema: Record<string, unknown> } | { ok: false; error: Message } {
  if (typeof text !== "string" || text.trim() === "") return { ok: false, error: { key: "schemaImpact.errors.schemaRequired" } };
  // Before JSON.parse, and before the check of documents walks the schema.
  if (nestingOffset(text) !== null)
    return { ok: false, error: { key: "schemaImpact.errors.tooDeep", params: { limit: MAX_SCHEMA_NESTING } } };
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch {
    return { ok: false, error: { key: "schemaImpact.errors.invalidJson" } };
  }
  if (!isPlainObject(schema)) return { ok: false, error: { key: "schemaImpact.errors.notObject" } };
  return { ok: true, schema };
}
