import { bulkSelection, SelectionTooLarge, settableFields } from "@server/content/bulk-actions";
import type { DocumentSelection } from "@server/content/document-selection";
import type { Bucket } from "@server/content/buckets";
import type { Queryable } from "@server/db/client";
import { HttpError } from "@server/errors";
import { isPlainObject } from "@core/plain-object";
import { isPublicationState, type PublicationState } from "@core/content/publication";
import { isUuid } from "@core/ids";

/*
 * What the bulk page (bulk.tsx) reads of its query or form: the action, and the selection as the overview's bulk
 * bar sends it (the ticked documents, the page's, or every one matching the overview's search and state filter).
 */

export const BULK_ACTIONS = ["set", "duplicate", "delete"] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** Which documents: `ticked` (the `id` values), `page` (the `page` values) or `all` matching `q` and `state`. */
export type BulkScope = "ticked" | "page" | "all";

export interface SelectionFields {
  scope: BulkScope;
  ids: string[];
  search: string;
  state: PublicationState | null;
  /** The overview's translation filter: a locale the documents lack. */
  missing: string | null;
}

type Read = (name: string) => string | null;
type ReadAll = (name: string) => string[];

export function readBulkAction(value: string | null): BulkAction {
  const action = BULK_ACTIONS.find((candidate) => candidate === value);
  if (!action) throw new HttpError(400, "bulk.badAction");
  return action;
}

/** The selection the overview's bar (or the bulk page's own form) sent. */
export function readSelectionFields(read: Read, readAll: ReadAll): SelectionFields {
  const scopeValue = read("scope") ?? "ticked";
  const scope: BulkScope = scopeValue === "all" || scopeValue === "page" ? scopeValue : "ticked";
  const ids = scope === "all" ? [] : readAll(scope === "page" ? "page" : "id");
  if (ids.some((id) => !isUuid(id))) throw new HttpError(400, "errors.badRequest");
  const stateValue = read("state") || null;
  if (stateValue !== null && !isPublicationState(stateValue)) throw new HttpError(400, "errors.badRequest");
  return {
    scope,
    ids: [...new Set(ids.map((id) => id.toLowerCase()))],
    search: read("q")?.trim() ?? "",
    state: stateValue,
    missing: read("missing") || null,
  };
}

export const documentSelection = (fields: SelectionFields): DocumentSelection =>
  fields.scope === "all" ? { search: fields.search, state: fields.state, missing: fields.missing } : { ids: fields.ids };

/** The selection's ids (none when nothing was ticked), or `tooMany`. */
export async function selectionIds(db: Queryable, bucket: Bucket, fields: SelectionFields): Promise<{ ids: string[]; tooMany: boolean }> {
  if (fields.missing !== null && !bucket.locales.includes(fields.missing)) throw new HttpError(400, "errors.badRequest");
  if (fields.scope !== "all" && fields.ids.length === 0) return { ids: [], tooMany: false };
  try {
    return { ids: await bulkSelection(db, bucket, documentSelection(fields)), tooMany: false };
  } catch (error) {
    if (error instanceof SelectionTooLarge) return { ids: [], tooMany: true };
    throw error;
  }
}

/** A field a bulk change can set, as its form shows it: the input's kind and, for an enum, its values. */
export interface SettableField {
  header: string;
  label: string;
  kind: "text" | "number" | "integer" | "boolean" | "json";
  options: string[] | null;
}

export function settableFieldsOf(bucket: Bucket): SettableField[] {
  const properties = isPlainObject(bucket.jsonSchema) && isPlainObject(bucket.jsonSchema.properties) ? bucket.jsonSchema.properties : {};
  return settableFields(bucket).map((column) => {
    const node = properties[column.property];
    const title = isPlainObject(node) && typeof node.title === "string" && node.title.trim() ? node.title : column.property;
    const options =
      isPlainObject(node) && Array.isArray(node.enum) && node.enum.every((value) => typeof value === "string") ? node.enum : null;
    return { header: column.header, label: column.locale ? `${title} (${column.locale})` : title, kind: column.kind, options };
  });
}

/** The hidden fields that carry a selection from the overview's bar to the bulk page's post. */
export function selectionQuery(fields: SelectionFields): Array<[string, string]> {
  const pairs: Array<[string, string]> = [["scope", fields.scope]];
  if (fields.scope === "all") {
    if (fields.search) pairs.push(["q", fields.search]);
    if (fields.state) pairs.push(["state", fields.state]);
    if (fields.missing) pairs.push(["missing", fields.missing]);
  } else for (const id of fields.ids) pairs.push([fields.scope === "page" ? "page" : "id", id]);
  return pairs;
}
