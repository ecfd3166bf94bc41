import type { Queryable } from "@server/db/client";
import { isBucketVisible } from "@server/content/buckets";
import { mediaFitErrors, type StoredMediaFacts } from "@core/media/fit";
import type { MediaKind } from "@core/media/bounds";
import { mediaKindOfSchema } from "@core/form/field-kind";
import { translate, translateMessage, type Message } from "@core/messages";
import type { Locale } from "@core/locales";
import type { MediaReference } from "./form-upload";
import type { MediaDetails } from "./store";

/*
 * Choosing a library item in a field (docs/media.md, "Choose from library"): whether an item fits the field, for the
 * picker (which says why the others do not) and for the save, which checks every item a document names for the first
 * time: the user may see its bucket, it is of the field's kind and within the field's bounds. Items the document
 * already uses are not checked again (a field whose bounds changed since does not block other edits).
 */

/** An item's stored facts as one row of media_items `i` joined with its newest media `m`. */
export const STORED_FACTS_COLUMNS = `i.kind, i.size::float8 AS size, m.width, m.height, m.details,
  substring(m.storage_key FROM '\\.([A-Za-z0-9]+)$') AS extension`;

export interface StoredFactsRow {
  kind: MediaKind;
  size: number;
  width: number | null;
  height: number | null;
  details: MediaDetails;
  extension: string | null;
}

export const storedFacts = (row: StoredFactsRow): StoredMediaFacts => ({
  kind: row.kind,
  size: row.size,
  width: row.width,
  height: row.height,
  fps: row.details.fps ?? null,
  codec: row.details.codec ?? null,
  extension: row.extension ?? "",
});

/** Who chooses: a user sees the items of their buckets; an API client, the seed or the CLI names items by id. */
export interface Chooser {
  buckets?: string[] | null;
}

type FieldErrors = Record<string, string[]>;

/**
 * The field errors of the library items a document names for the first time (`documentId`: the saved document, if
 * any): an item of a bucket the user may not see is "No such media", one that does not fit gets the field's own
 * messages. References to no item at all (a pending upload, an id of nothing) are not this check's.
 */
export async function checkChosenMedia(
  db: Queryable,
  input: { chooser: Chooser; documentId: string | null; references: readonly MediaReference[]; locale: Locale },
): Promise<FieldErrors> {
  const ids = [...new Set(input.references.map((reference) => reference.contentId.toLowerCase()))];
  if (!ids.length) return {};
  const { rows } = await db.query<StoredFactsRow & { contentId: string; bucketSlug: string; private: boolean }>(
    `SELECT i.content_id AS "contentId", b.slug AS "bucketSlug", b.private, ${STORED_FACTS_COLUMNS}
     FROM media_items i JOIN media m ON m.id = i.latest_media_id JOIN buckets b ON b.id = i.bucket_id
     WHERE i.content_id = ANY($1::uuid[])
       AND NOT EXISTS (SELECT 1 FROM media_uses u WHERE u.media_content_id = i.content_id AND u.document_id = $2::uuid)`,
    [ids, input.documentId],
  );
  const items = new Map(rows.map((row) => [row.contentId, row]));
  const errors: FieldErrors = {};
  for (const reference of input.references) {
    const item = items.get(reference.contentId.toLowerCase());
    if (!item) continue;
    const messages = visibleTo(item, input.chooser)
      ? fitMessages(reference, item).map((message) => translateMessage(input.locale, message))
      : [translate(input.locale, "media.noSuchMedia")];
    if (messages.length) (errors[reference.name] ??= []).push(...messages);
  }
  return errors;
}

const visibleTo = (bucket: { bucketSlug: string; private: boolean }, chooser: Chooser) =>
  chooser.buckets === undefined || isBucketVisible({ slug: bucket.bucketSlug, private: bucket.private }, { buckets: chooser.buckets });

function fitMessages(reference: MediaReference, item: StoredFactsRow): Message[] {
  const kind = mediaKindOfSchema(reference.property);
  return kind ? mediaFitErrors(kind, reference.property, storedFacts(item)) : [];
}
