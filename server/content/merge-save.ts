import type { Db, Queryable } from "@server/db/client";
import { fieldLabel, fieldName, MERGE_CHOICE_PREFIX, mergeDocuments, type FieldPath } from "@core/content/merge";
import { isPlainObject } from "@core/plain-object";
import type { JsonSchema } from "@core/schema/normalize";
import { saveDocument, type SaveDeps, type SaveRequest, type SaveResult } from "./save";
import type { VersionConflictError } from "./store";

/*
 * A save from a stale version (VersionConflictError), merged three ways with the newest version (core/content/
 * merge.ts): changes to different fields are saved at once as a new version on top of the newest, recording the
 * version the editor had loaded and the fields taken from the newest; changes to the same field are not saved and
 * come back for the editor to choose. The edit form merges every stale save; the JSON API when asked (`merge=true`).
 */

/** A field both sides changed: its form name, its label, and both values. */
export interface ConflictingField {
  name: string;
  label: string;
  mine: unknown;
  theirs: unknown;
}

export type MergedSave =
  | { kind: "saved"; result: SaveResult; author: string | null; fromNewest: FieldPath[] }
  | {
      kind: "conflicts";
      /** The newest version: the base of the editor's next save. */
      latestVersionId: string;
      author: string | null;
      fields: ConflictingField[];
      /** The document as the editor's next save starts from: the other side's changes in, the editor's at the conflicts. */
      merged: Record<string, unknown>;
    };

interface Side {
  data: Record<string, unknown>;
  author: string | null;
}

async function versionSide(db: Queryable, contentId: string, versionId: string): Promise<Side | null> {
  const { rows } = await db.query<{ data: unknown; author: string | null }>(
    `SELECT v.data, u.name AS author FROM versions v LEFT JOIN users u ON u.id = v.created_by
     WHERE v.content_id = $1 AND v.version_id = $2`,
    [contentId, versionId],
  );
  const row = rows[0];
  return row && isPlainObject(row.data) ? { data: row.data, author: row.author } : null;
}

/**
 * Merges the request's document (`mine`, validated or not: the merged document is validated when saved) with the
 * newest version and saves it on top of it, in one transaction that holds the document's row: no save comes in
 * between the merge and its write, so many stale saves at once each merge once, one after the other. Throws the
 * conflict again when the version the editor loaded is not found.
 */
export async function saveMerged(
  deps: SaveDeps & { db: Db },
  request: SaveRequest & { contentId: string; baseVersionId: string },
  schema: JsonSchema,
  mine: Record<string, unknown>,
  conflict: VersionConflictError,
): Promise<MergedSave> {
  return deps.db.transaction(async (tx): Promise<MergedSave> => {
    const { rows } = await tx.query<{ latest: string }>(
      `SELECT latest_version_id AS latest FROM contents WHERE content_id = $1 AND bucket_id = $2 FOR UPDATE`,
      [request.contentId, request.bucket.id],
    );
    const latestVersionId = rows[0]?.latest;
    if (!latestVersionId) throw conflict;
    const loaded = await versionSide(tx, request.contentId, request.baseVersionId);
    const newest = await versionSide(tx, request.contentId, latestVersionId);
    if (!loaded || !newest) throw conflict;
    const outcome = mergeDocuments(schema, loaded.data, newest.data, mine);
    if (outcome.conflicts.length)
      return {
        kind: "conflicts",
        latestVersionId,
        author: newest.author,
        merged: outcome.merged,
        fields: outcome.conflicts.map(({ path, mine: ours, theirs }) => ({
          name: fieldName(path),
          label: fieldLabel(schema, path),
          mine: ours,
          theirs,
        })),
      };
    const result = await saveDocument(
      { ...deps, db: tx },
      {
        ...request,
        baseVersionId: latestVersionId,
        document: { payload: outcome.merged },
        merge: { loadedVersionId: request.baseVersionId, fromNewest: outcome.fromTheirs },
      },
    );
    return { kind: "saved", result, author: newest.author, fromNewest: outcome.fromTheirs };
  });
}

/** What a merged version's page says: whose changes were taken, to which fields ("Title (nl)", "Images"). */
export async function mergeNoticeOf(
  db: Queryable,
  schema: JsonSchema,
  contentId: string,
  versionId: string,
): Promise<{ author: string | null; fields: string[] } | null> {
  const { rows } = await db.query<{ fields: unknown; author: string | null }>(
    `SELECT v.merged_fields AS fields, u.name AS author
     FROM versions v LEFT JOIN versions newest ON newest.version_id = v.base_version_id LEFT JOIN users u ON u.id = newest.created_by
     WHERE v.content_id = $1 AND v.version_id = $2 AND v.merged_version_id IS NOT NULL`,
    [contentId, versionId],
  );
  const row = rows[0];
  if (!row || !Array.isArray(row.fields)) return null;
  const paths = row.fields.filter((path): path is string[] => Array.isArray(path) && path.every((key) => typeof key === "string"));
  return { author: row.author, fields: paths.map((path) => fieldLabel(schema, path)) };
}

/** Takes the merge choices out of a form post: the names of the fields whose newest value the editor chose. */
export function takeMergeChoices(formData: FormData): string[] {
  const chosen: string[] = [];
  for (const [name, value] of [...formData.entries()]) {
    if (!name.startsWith(MERGE_CHOICE_PREFIX)) continue;
    formData.delete(name);
    if (value === "theirs") chosen.push(name.slice(MERGE_CHOICE_PREFIX.length));
  }
  return chosen;
}

/**
 * Sets the chosen fields of `data` to their values in the version the form is based on (the newest when the
 * conflict was shown; a field that version lacks is left out). A save after yet another save is merged again.
 */
export async function takeChosenTheirs(
  db: Queryable,
  contentId: string,
  baseVersionId: string,
  data: Record<string, unknown>,
  names: readonly string[],
): Promise<void> {
  if (!names.length) return;
  const base = await versionSide(db, contentId, baseVersionId);
  if (!base) return;
  for (const name of names) {
    const path = name.split(".");
    if (path.some((key) => key === "__proto__" || key === "constructor" || key === "prototype")) continue;
    let theirs: unknown = base.data;
    for (const key of path) theirs = isPlainObject(theirs) ? theirs[key] : undefined;
    let target: Record<string, unknown> = data;
    for (const key of path.slice(0, -1)) {
      if (!isPlainObject(target[key])) target[key] = {};
      target = target[key] as Record<string, unknown>;
    }
    const last = path.at(-1) ?? "";
    if (theirs === undefined) Reflect.deleteProperty(target, last);
    else target[last] = structuredClone(theirs);
  }
}

const SHOWN_LIMIT = 300;

/** A field's value as the conflict shows it: text as it is, anything else as compact JSON, at most 300 characters. */
export function shownValue(value: unknown): string {
  const text =
    value === undefined || value === null
      ? ""
      : typeof value === "string"
        ? value
        : Array.isArray(value) && value.every((item) => typeof item === "string")
          ? value.join(", ")
          : JSON.stringify(value);
  return text.length > SHOWN_LIMIT ? `${text.slice(0, SHOWN_LIMIT - 1)}…` : text;
}
