import { isDeepStrictEqual } from "node:util";
import type { Services } from "@server/services";
import type { User } from "@server/accounts/users";
import { recordActivity } from "@server/admin/activity";
import type { Queryable } from "@server/db/client";
import { dataOfCells, documentColumns, type DocumentColumn } from "@core/content/columns";
import { documentTitle, markedAsCopy } from "@core/content/title";
import { fieldLabel } from "@core/content/merge";
import { isPlainObject } from "@core/plain-object";
import { translateMessage, type Message } from "@core/messages";
import type { Locale } from "@core/locales";
import type { Bucket } from "./buckets";
import { selectedIds, type DocumentSelection } from "./document-selection";
import { ownedInlineDocuments, writeDuplicateDocuments, InlineCopyError } from "./duplicate";
import { saveDocument, type SaveRequest } from "./save";
import { ContentNotFoundError, deleteContent, VersionConflictError } from "./store";
import { compileBucketSchema } from "./validator";

/*
 * Bulk actions over a selection of a bucket's documents (issue 34): set one field, duplicate, delete. Each document
 * is its own save through the one front door (saveDocument), so a document the change would make invalid is refused
 * with the editor's own messages and skipped, never half-saved; the others are saved as new versions by the actor.
 */

/** The most documents one bulk action takes; a larger selection is narrowed first. */
export const MAX_BULK_DOCUMENTS = 10_000;

/** A selection over MAX_BULK_DOCUMENTS. */
export class SelectionTooLarge extends Error {
  constructor() {
    super(`A bulk action takes at most ${MAX_BULK_DOCUMENTS} documents`);
    this.name = "SelectionTooLarge";
  }
}

export interface BulkContext {
  services: Services;
  actor: User;
  bucket: Bucket;
  /** The interface language: the refusals' messages and a duplicate's "(copy)". */
  locale: Locale;
}

/** A document the action left as it was, and why. */
export interface BulkSkip {
  contentId: string;
  title: string;
  messages: string[];
}

export interface BulkOutcome {
  /** Saved (set, duplicated) or deleted. */
  done: number;
  /** Already as asked. */
  unchanged: number;
  skipped: BulkSkip[];
}

/** The selected documents' ids, oldest first; throws SelectionTooLarge past the limit. */
export async function bulkSelection(
  db: Queryable,
  bucket: Pick<Bucket, "id" | "jsonSchema">,
  selection: DocumentSelection,
): Promise<string[]> {
  const ids = await selectedIds(db, bucket, selection, MAX_BULK_DOCUMENTS + 1);
  if (ids.length > MAX_BULK_DOCUMENTS) throw new SelectionTooLarge();
  return ids;
}

/** The fields a bulk change can set: the bucket's columns (a translated text per locale), as the import maps them. */
export const settableFields = (bucket: Pick<Bucket, "jsonSchema" | "locales">): DocumentColumn[] =>
  documentColumns(bucket.jsonSchema, bucket.locales);

export type FieldChange = (data: Record<string, unknown>) => Record<string, unknown>;

/**
 * The change "set this field to this text", read as an import reads a cell (a number as a number, a list as its
 * JSON); an empty text clears the field. A text the field cannot take is the message.
 */
export function fieldChange(
  bucket: Pick<Bucket, "jsonSchema" | "locales">,
  header: string,
  text: string,
): { ok: true; change: FieldChange; column: DocumentColumn } | { ok: false; message: Message } {
  const column = settableFields(bucket).find((candidate) => candidate.header === header);
  if (!column) return { ok: false, message: { key: "bulk.unknownField" } };
  const read = dataOfCells({ [header]: text }, [column]);
  const problem = read.problems[0];
  if (problem) return { ok: false, message: problem.message };
  const { property, locale } = column;
  const without = (record: Record<string, unknown>, name: string) =>
    Object.fromEntries(Object.entries(record).filter(([key]) => key !== name));
  const change: FieldChange = (data) => {
    if (locale === undefined) return text === "" ? without(data, property) : { ...data, [property]: read.data[property] };
    const texts = isPlainObject(data[property]) ? data[property] : {};
    return { ...data, [property]: text === "" ? without(texts, locale) : { ...texts, [locale]: text } };
  };
  return { ok: true, change, column };
}

interface Selected {
  contentId: string;
  versionId: string;
  data: Record<string, unknown>;
}

const CHUNK = 100;

/** The documents of these ids, a hundred at a time (a document deleted meanwhile is not among them). */
async function* selectedDocuments(db: Queryable, bucket: Pick<Bucket, "id">, ids: readonly string[]): AsyncGenerator<Selected> {
  for (let start = 0; start < ids.length; start += CHUNK) {
    const { rows } = await db.query<Selected>(
      `SELECT c.content_id AS "contentId", c.latest_version_id AS "versionId", v.data
       FROM contents c JOIN versions v ON v.version_id = c.latest_version_id
       WHERE c.bucket_id = $1 AND c.content_id = ANY($2::uuid[])
       ORDER BY c.created_at, c.content_id`,
      [bucket.id, ids.slice(start, start + CHUNK)],
    );
    yield* rows;
  }
}

const titleOf = (bucket: Bucket, data: Record<string, unknown>) => documentTitle(data, bucket.jsonSchema, bucket.locales);

/** A refusal's messages, each after the field's label ("Year: …"), as the bulk page lists them. */
function refusalMessages(bucket: Bucket, byField: Record<string, string[]>, message: string): string[] {
  const { schema } = compileBucketSchema(bucket);
  const messages = Object.entries(byField).flatMap(([field, texts]) =>
    texts.map((text) => (field ? `${fieldLabel(schema, field.split("."))}: ${text}` : text)),
  );
  return messages.length ? messages : [message];
}

const skipped = (bucket: Bucket, document: Selected, messages: string[]) => ({
  contentId: document.contentId,
  title: titleOf(bucket, document.data),
  messages,
});

/**
 * One document's save in a bulk action: counted as done, or skipped with the refusal's messages, or with the message
 * `expected` gives an error it expects (any other error is thrown).
 */
async function saveCounted(
  outcome: BulkOutcome,
  { services, actor, bucket, locale }: BulkContext,
  document: Selected,
  request: Omit<SaveRequest, "actor" | "bucket" | "locale">,
  expected: (error: unknown) => string | null,
): Promise<void> {
  try {
    const saved = await saveDocument(services, { actor, bucket, locale, ...request });
    if (saved.ok) outcome.done += 1;
    else outcome.skipped.push(skipped(bucket, document, refusalMessages(bucket, saved.errors.byField, saved.message)));
  } catch (error) {
    const message = expected(error);
    if (message === null) throw error;
    outcome.skipped.push(skipped(bucket, document, [message]));
  }
}

/** Sets one field of each selected document (fieldChange), each document its own validated save. */
export async function bulkSetField(context: BulkContext, ids: readonly string[], change: FieldChange, field: string): Promise<BulkOutcome> {
  const { services, bucket, locale } = context;
  const outcome: BulkOutcome = { done: 0, unchanged: 0, skipped: [] };
  for await (const document of selectedDocuments(services.db, bucket, ids)) {
    const data = change(document.data);
    if (isDeepStrictEqual(data, document.data)) {
      outcome.unchanged += 1;
      continue;
    }
    await saveCounted(
      outcome,
      context,
      document,
      { contentId: document.contentId, baseVersionId: document.versionId, document: { payload: data } },
      // Saved or deleted by someone else since this document was read: left as that save made it.
      (error) =>
        error instanceof VersionConflictError || error instanceof ContentNotFoundError
          ? translateMessage(locale, { key: "bulk.changedMeanwhile" })
          : null,
    );
  }
  await recordBulk(services.db, context, "bulkChanged", { field, changed: outcome.done, skipped: outcome.skipped.length });
  return outcome;
}

/** A copy of each selected document (its title marked as a copy, its own inline sub-documents copied with it). */
export async function bulkDuplicate(context: BulkContext, ids: readonly string[]): Promise<BulkOutcome> {
  const { services, actor, bucket, locale } = context;
  const outcome: BulkOutcome = { done: 0, unchanged: 0, skipped: [] };
  const { schema } = compileBucketSchema(bucket);
  for await (const document of selectedDocuments(services.db, bucket, ids)) {
    const data = markedAsCopy(document.data, bucket.jsonSchema, locale);
    const owned = await ownedInlineDocuments(services.db, bucket, document.contentId);
    await saveCounted(
      outcome,
      context,
      document,
      {
        document: { payload: data },
        before: owned.size
          ? writeDuplicateDocuments(services, actor, { schema, data }, { buckets: [], documents: [] }, owned, locale)
          : undefined,
      },
      (error) => (error instanceof InlineCopyError ? error.reason : null),
    );
  }
  await recordBulk(services.db, context, "duplicated", { copies: outcome.done, skipped: outcome.skipped.length });
  return outcome;
}

/** Deletes the selected documents, each with its versions (the activity log records each, as the overview's delete does). */
export async function bulkDelete(context: BulkContext, ids: readonly string[]): Promise<BulkOutcome> {
  const { services, actor, bucket } = context;
  const outcome: BulkOutcome = { done: 0, unchanged: 0, skipped: [] };
  for await (const document of selectedDocuments(services.db, bucket, ids)) {
    try {
      await deleteContent(services.db, bucket.id, document.contentId, document.versionId, { actor, bucket });
      outcome.done += 1;
    } catch (error) {
      // Deleted meanwhile: what was asked is done. Saved meanwhile: that newer version is kept, and said so.
      if (error instanceof ContentNotFoundError) outcome.done += 1;
      else if (error instanceof VersionConflictError)
        outcome.skipped.push(skipped(bucket, document, [translateMessage(context.locale, { key: "bulk.changedMeanwhile" })]));
      else throw error;
    }
  }
  return outcome;
}

async function recordBulk(db: Queryable, context: BulkContext, action: string, details: Record<string, unknown>): Promise<void> {
  await recordActivity(db, context.actor, { area: "document", action, subject: context.bucket.slug, details });
}

/** The titles of these documents, in the selection's order (the bulk page's sample of what it acts on). */
export async function documentTitles(
  db: Queryable,
  bucket: Bucket,
  ids: readonly string[],
): Promise<Array<{ contentId: string; title: string }>> {
  const titles: Array<{ contentId: string; title: string }> = [];
  for await (const document of selectedDocuments(db, bucket, ids))
    titles.push({ contentId: document.contentId, title: titleOf(bucket, document.data) });
  return titles;
}
