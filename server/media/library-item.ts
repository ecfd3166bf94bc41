import type { Db, Queryable } from "@server/db/client";
import type { LinkedBucket } from "@server/content/buckets";
import { HttpError } from "@server/errors";
import { isUuid } from "@core/ids";
import { documentTitle } from "@core/content/title";
import { savedDocumentPath } from "@core/content/screens";
import { bucketName } from "@core/content/bucket-name";
import type { Locale } from "@core/locales";
import { ALT_TEXT_MAX, CAPTION_MAX, CREDITS_MAX, type MediaUse, type RefusedDeletion } from "@core/media/library";

export type { MediaUse, RefusedDeletion } from "@core/media/library";
import { libraryItem, type ItemRow, type LibraryBucket, type LibraryItem } from "./library";
import { scheduleRemovalOf } from "./removals";

/*
 * One media item of the library (docs/media.md): what it is, its versions, where it is used, its texts per locale;
 * describing it, and deleting items nobody uses. Items of buckets the user may not see do not exist for them (404).
 */

export interface MediaDescriptions {
  alt: Record<string, string>;
  caption: Record<string, string>;
  credits: string;
}

export interface LibraryItemDetail extends LibraryItem {
  bucketId: string;
  descriptions: MediaDescriptions;
  /** The locales its texts are asked for: its bucket's. */
  locales: string[];
  versions: Array<{
    id: string;
    name: string;
    size: number;
    width: number | null;
    height: number | null;
    createdAt: string;
    createdBy: string | null;
  }>;
  useList: MediaUse[];
  /** Uses in documents of buckets the user may not see: counted, never named. */
  hiddenUses: number;
  /** A use item (use-items.ts): the shared item whose texts it shows where it has none of its own. */
  shared: { contentId: string; name: string; descriptions: MediaDescriptions } | null;
}

interface SharedRow {
  contentId: string;
  name: string;
  descriptions: Partial<MediaDescriptions>;
  credits: string;
}

const descriptionsOf = (row: { descriptions: Partial<MediaDescriptions>; credits: string }): MediaDescriptions => ({
  alt: row.descriptions.alt ?? {},
  caption: row.descriptions.caption ?? {},
  credits: row.credits,
});

const notFound = () => new HttpError(404, "media.noSuchMedia");

/** The item, if the user may see its bucket. */
export async function findLibraryItem(
  db: Queryable,
  buckets: readonly LibraryBucket[],
  contentId: string | undefined,
  locale: Locale,
): Promise<LibraryItemDetail> {
  if (!isUuid(contentId)) throw notFound();
  const { rows } = await db.query<ItemRow & { descriptions: Partial<MediaDescriptions>; credits: string; shared: SharedRow | null }>(
    `SELECT i.content_id AS "contentId", i.latest_media_id AS "versionId", i.kind, i.name, i.size::float8 AS size,
       i.bucket_id AS "bucketId", i.created_at AS "createdAt", i.updated_at AS "updatedAt", i.descriptions, i.credits,
       m.mimetype, m.width, m.height, m.details, u.name AS "uploadedBy",
       (SELECT json_build_object('contentId', s.content_id, 'name', s.name, 'descriptions', s.descriptions, 'credits', s.credits)
        FROM media_items s WHERE s.content_id = i.use_of) AS shared,
       (SELECT coalesce(array_agg(l), '{}') FROM unnest(b.locales) AS l WHERE i.kind = 'image'
         AND coalesce(t.descriptions #>> ARRAY['alt', l], '') = '') AS "missingAlt",
       (SELECT count(*)::int FROM media_uses x WHERE x.media_content_id = i.content_id) AS uses,
       (SELECT CASE WHEN bool_or(j.status = 'failed') THEN 'error'
                    WHEN bool_or(j.status IN ('new', 'processing')) THEN 'processing' END
        FROM jobs j WHERE j.media_id = i.latest_media_id) AS status
     FROM media_items i JOIN media_item_texts t ON t.content_id = i.content_id
     JOIN buckets b ON b.id = i.bucket_id JOIN media m ON m.id = i.latest_media_id
     LEFT JOIN users u ON u.id = i.created_by
     WHERE i.content_id = $1`,
    [contentId],
  );
  const row = rows[0];
  const bucket = row && buckets.find((candidate) => candidate.id === row.bucketId);
  if (!row || !bucket) throw notFound();
  const [versions, uses] = await Promise.all([versionsOf(db, row.contentId), usesOf(db, row.contentId, buckets, locale)]);
  return {
    ...libraryItem(row, bucket),
    bucketId: row.bucketId,
    descriptions: descriptionsOf(row),
    locales: bucket.locales,
    versions,
    useList: uses.visible,
    hiddenUses: uses.hidden,
    shared: row.shared && { contentId: row.shared.contentId, name: row.shared.name, descriptions: descriptionsOf(row.shared) },
  };
}

async function versionsOf(db: Queryable, contentId: string): Promise<LibraryItemDetail["versions"]> {
  const { rows } = await db.query<{
    id: string;
    name: string;
    size: number;
    width: number | null;
    height: number | null;
    createdAt: Date;
    createdBy: string | null;
  }>(
    `SELECT m.id, m.original_filename AS name, m.size::float8 AS size, m.width, m.height, m.created_at AS "createdAt",
       u.name AS "createdBy"
     FROM media m LEFT JOIN users u ON u.id = m.created_by WHERE m.content_id = $1 ORDER BY m.seq DESC`,
    [contentId],
  );
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** A document using an item: its newest version's data and its bucket. */
export interface UsingDocument {
  contentId: string;
  data: Record<string, unknown>;
  title: string;
  bucket: LinkedBucket;
}

/** Every document whose newest or published version names the item (media_uses), in bucket order. */
export async function usingDocuments(db: Queryable, contentId: string): Promise<UsingDocument[]> {
  const { rows } = await db.query<{ contentId: string; data: Record<string, unknown>; bucket: UsingDocument["bucket"] }>(
    `SELECT c.content_id AS "contentId", v.data, json_build_object('id', b.id, 'slug', b.slug, 'name', b.name, 'names', b.names,
       'singleton', b.singleton, 'screen', b.screen, 'jsonSchema', b.json_schema, 'locales', b.locales) AS bucket
     FROM media_uses x JOIN contents c ON c.content_id = x.document_id
     JOIN versions v ON v.version_id = c.latest_version_id JOIN buckets b ON b.id = c.bucket_id
     WHERE x.media_content_id = $1 ORDER BY b.position, b.name, c.created_at`,
    [contentId],
  );
  return rows.map((row) => ({ ...row, title: documentTitle(row.data, row.bucket.jsonSchema, row.bucket.locales) }));
}

/** The documents using an item, the visible ones named (by title), the others counted. */
export async function usesOf(
  db: Queryable,
  contentId: string,
  buckets: readonly LibraryBucket[],
  locale: Locale,
): Promise<{ visible: MediaUse[]; hidden: number }> {
  const documents = await usingDocuments(db, contentId);
  const visible = new Set(buckets.map((bucket) => bucket.id));
  const shown = documents.filter((document) => visible.has(document.bucket.id));
  return {
    visible: shown.map(({ contentId: id, title, bucket }) => ({
      contentId: id,
      title,
      bucket: { slug: bucket.slug, name: bucketName(bucket, locale) },
      path: savedDocumentPath(bucket, id),
    })),
    hidden: documents.length - shown.length,
  };
}

export interface DescriptionsInput {
  alt: Record<string, string>;
  caption: Record<string, string>;
  credits: string;
}

/** Field names (as the form posts them) and their messages, for what is too long. */
export type DescriptionErrors = Record<string, { key: string; params: Record<string, number> }>;

/** Checks and stores an item's texts (empty ones are dropped); errors by field name, nothing stored then. */
export async function describeMediaItem(
  db: Queryable,
  buckets: readonly LibraryBucket[],
  contentId: string,
  input: DescriptionsInput,
): Promise<DescriptionErrors> {
  const item = await findLibraryItem(db, buckets, contentId, "en");
  const errors: DescriptionErrors = {};
  const clean = (texts: Record<string, string>, field: "alt" | "caption", max: number) => {
    const out: Record<string, string> = {};
    for (const locale of item.locales) {
      const text = (texts[locale] ?? "").trim();
      if (text.length > max) errors[`${field}.${locale}`] = { key: "library.tooLong", params: { max } };
      else if (text) out[locale] = text;
    }
    return out;
  };
  const descriptions = { alt: clean(input.alt, "alt", ALT_TEXT_MAX), caption: clean(input.caption, "caption", CAPTION_MAX) };
  const credits = input.credits.trim();
  if (credits.length > CREDITS_MAX) errors.credits = { key: "library.tooLong", params: { max: CREDITS_MAX } };
  if (Object.keys(errors).length) return errors;
  await db.query(
    `UPDATE media_items SET descriptions = $2::jsonb, credits = $3,
       search_text = media_item_search_text(name, $2::jsonb, $3), updated_at = now()
     WHERE content_id = $1`,
    [contentId, JSON.stringify(descriptions), credits],
  );
  return {};
}

/**
 * Deletes the items no document uses, in one transaction holding their rows; a used item is refused with its uses
 * (nothing of it is deleted). The files are scheduled for removal with the rows (media_removals).
 */
export async function deleteMediaItems(
  db: Db,
  buckets: readonly LibraryBucket[],
  contentIds: readonly string[],
  locale: Locale,
): Promise<{ deleted: string[]; refused: RefusedDeletion[] }> {
  const ids = [...new Set(contentIds.filter((id) => isUuid(id)).map((id) => id.toLowerCase()))];
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ contentId: string; name: string; bucketId: string }>(
      `SELECT content_id AS "contentId", name, bucket_id AS "bucketId" FROM media_items WHERE content_id = ANY($1::uuid[])
       ORDER BY content_id FOR UPDATE`,
      [ids],
    );
    const visible = new Set(buckets.map((bucket) => bucket.id));
    const items = rows.filter((row) => visible.has(row.bucketId));
    if (items.length < ids.length) throw notFound();
    const refused: RefusedDeletion[] = [];
    const deleted: string[] = [];
    for (const item of items) {
      const uses = await usesOf(tx, item.contentId, buckets, locale);
      if (uses.visible.length || uses.hidden)
        refused.push({ contentId: item.contentId, name: item.name, uses: uses.visible, hiddenUses: uses.hidden });
      else deleted.push(item.contentId);
    }
    if (deleted.length) {
      // With their use items (use-items.ts): no document uses those either, or the shared item would count the use.
      const { rows: useItems } = await tx.query<{ contentId: string }>(
        `SELECT content_id AS "contentId" FROM media_items WHERE use_of = ANY($1::uuid[])`,
        [deleted],
      );
      const gone = [...deleted, ...useItems.map((row) => row.contentId)];
      await scheduleRemovalOf(tx, "content_id = ANY($1::uuid[])", [gone]);
      await tx.query(`DELETE FROM media WHERE content_id = ANY($1::uuid[])`, [gone]);
      await tx.query(`DELETE FROM media_items WHERE content_id = ANY($1::uuid[])`, [gone]);
    }
    return { deleted, refused };
  });
}
