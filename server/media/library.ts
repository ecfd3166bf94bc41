import { prepared, type Queryable } from "@server/db/client";
import type { User } from "@server/accounts/users";
import { isBucketVisible } from "@server/content/buckets";
import { bucketName, type BucketNames } from "@core/content/bucket-name";
import type { Locale } from "@core/locales";
import type { MediaKind } from "@core/media/bounds";
import { LIBRARY_PAGE_SIZE, MISSING_ALT_COUNT_LIMIT, type LibraryItem, type LibraryQuery } from "@core/media/library";

export type { LibraryItem } from "@core/media/library";
import { chosenStillUrl } from "./content";
import type { MediaDetails } from "./store";
import { ORIGINAL_JOIN, STORED_FACTS_COLUMNS, type StoredFactsRow } from "./stored-facts";

/*
 * The media library's list (docs/media.md): every media item of the buckets the user may see, searched by name,
 * descriptions and credits (the trigram index of media_items, migration 041), filtered, sorted and paged. A page is
 * one statement; whether there is a next page is read from one row more, so no page counts the whole library.
 */

export interface LibraryBucket {
  id: string;
  slug: string;
  name: string;
  locales: string[];
}

/** The buckets whose media the user may see, named in the interface's language. */
export async function libraryBuckets(db: Queryable, user: User, locale: Locale): Promise<LibraryBucket[]> {
  const { rows } = await db.query<{ id: string; slug: string; name: string; names: BucketNames; private: boolean; locales: string[] }>(
    `SELECT id, slug, name, names, private, locales FROM buckets ORDER BY position, name`,
  );
  return rows
    .filter((bucket) => isBucketVisible(bucket, user))
    .map((bucket) => ({ id: bucket.id, slug: bucket.slug, name: bucketName(bucket, locale), locales: bucket.locales }));
}

const ORDER: Record<LibraryQuery["sort"], string> = {
  newest: "i.created_at DESC, i.content_id DESC",
  oldest: "i.created_at ASC, i.content_id ASC",
  name: "lower(i.name) ASC, i.content_id ASC",
  size: "i.size DESC, i.content_id DESC",
};

/** A missing alternative text: an image whose bucket has a locale without one. */
const MISSING_ALT = `(SELECT coalesce(array_agg(l), '{}') FROM unnest(b.locales) AS l WHERE i.kind = 'image'
  AND coalesce(i.descriptions #>> ARRAY['alt', l], '') = '')`;

/**
 * The same as a non-empty MISSING_ALT, in a form the planner estimates and an index-less scan tests cheaply: empty
 * texts are never stored, so an image lacks one exactly when its texts do not hold every locale of its bucket.
 */
const LACKS_ALT = `(i.kind = 'image' AND NOT (coalesce(i.descriptions->'alt', '{}') ?& b.locales))`;

/** The conditions of a query over media_items `i` joined with its bucket `b`, and their parameters after `$1`. */
function conditions(query: LibraryQuery, buckets: readonly LibraryBucket[]) {
  // Use items (use-items.ts) are their shared items' uses, not items of the library.
  const where = ["i.bucket_id = ANY($1::uuid[])", "i.use_of IS NULL"];
  const params: unknown[] = [buckets.map((bucket) => bucket.id)];
  const add = (sql: (param: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (query.q) add((p) => `search_key(i.search_text) LIKE ${p}`, `%${query.q.toLowerCase().replace(/[\\%_]/g, "\\$&")}%`);
  if (query.kind) add((p) => `i.kind = ${p}`, query.kind);
  if (query.bucket) add((p) => `b.slug = ${p}`, query.bucket);
  if (query.uploader) add((p) => `i.created_by = ${p}::uuid`, query.uploader);
  if (query.use === "used") where.push("EXISTS (SELECT 1 FROM media_uses u WHERE u.media_content_id = i.content_id)");
  if (query.use === "unused") where.push("NOT EXISTS (SELECT 1 FROM media_uses u WHERE u.media_content_id = i.content_id)");
  if (query.missingAlt) where.push(LACKS_ALT);
  return { where: where.join(" AND "), params };
}

/** One page of the library, and whether another follows. */
export async function listLibrary(
  db: Queryable,
  buckets: readonly LibraryBucket[],
  query: LibraryQuery,
): Promise<{ items: LibraryItem[]; hasMore: boolean }> {
  const { rows, hasMore } = await listLibraryRows(db, buckets, query);
  const names = new Map(buckets.map((bucket) => [bucket.id, bucket]));
  return { items: rows.map((row) => libraryItem(row, names.get(row.bucketId))), hasMore };
}

/** One page of the library as rows, with each item's stored facts (the picker checks them against its field). */
export async function listLibraryRows(
  db: Queryable,
  buckets: readonly LibraryBucket[],
  query: LibraryQuery,
): Promise<{ rows: Array<ItemRow & StoredFactsRow>; hasMore: boolean }> {
  if (!buckets.length) return { rows: [], hasMore: false };
  const { where, params } = conditions(query, buckets);
  const offset = (query.page - 1) * LIBRARY_PAGE_SIZE;
  const { rows } = await db.query<ItemRow & StoredFactsRow>(
    `SELECT i.content_id AS "contentId", i.latest_media_id AS "versionId", i.kind, i.name, i.size::float8 AS size,
       i.bucket_id AS "bucketId", i.created_at AS "createdAt", i.updated_at AS "updatedAt",
       m.mimetype, m.width, m.height, u.name AS "uploadedBy", ${MISSING_ALT} AS "missingAlt", ${STORED_FACTS_COLUMNS},
       (SELECT count(*)::int FROM media_uses x WHERE x.media_content_id = i.content_id) AS uses,
       (SELECT CASE WHEN bool_or(j.status = 'failed') THEN 'error'
                    WHEN bool_or(j.status IN ('new', 'processing')) THEN 'processing' END
        FROM jobs j WHERE j.media_id = i.latest_media_id) AS status
     FROM media_items i
     JOIN buckets b ON b.id = i.bucket_id
     JOIN media m ON m.id = i.latest_media_id ${ORIGINAL_JOIN}
     LEFT JOIN users u ON u.id = i.created_by
     WHERE ${where}
     ORDER BY ${ORDER[query.sort]}
     LIMIT ${LIBRARY_PAGE_SIZE + 1} OFFSET ${offset}`,
    params,
  );
  return { rows: rows.slice(0, LIBRARY_PAGE_SIZE), hasMore: rows.length > LIBRARY_PAGE_SIZE };
}

/** Images of the user's buckets without an alternative text in a locale of their bucket, up to the limit. */
export async function countMissingAlt(db: Queryable, buckets: readonly LibraryBucket[]): Promise<number> {
  if (!buckets.length) return 0;
  const { rows } = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM (
       SELECT 1 FROM media_items i JOIN buckets b ON b.id = i.bucket_id
       WHERE i.bucket_id = ANY($1::uuid[]) AND i.use_of IS NULL AND ${LACKS_ALT} LIMIT ${MISSING_ALT_COUNT_LIMIT}
     ) AS lacking`,
    [buckets.map((bucket) => bucket.id)],
  );
  return rows[0]?.count ?? 0;
}

export interface ItemRow {
  contentId: string;
  versionId: string;
  kind: MediaKind;
  name: string;
  size: number;
  bucketId: string;
  createdAt: Date;
  updatedAt: Date;
  mimetype: string;
  width: number | null;
  height: number | null;
  details: MediaDetails;
  uploadedBy: string | null;
  missingAlt: string[];
  uses: number;
  status: "error" | "processing" | null;
}

/** A row as the library shows it. */
export function libraryItem(row: ItemRow, bucket: Pick<LibraryBucket, "slug" | "name"> | undefined): LibraryItem {
  return {
    contentId: row.contentId,
    versionId: row.versionId,
    kind: row.kind,
    name: row.name,
    mimetype: row.mimetype,
    size: row.size,
    width: row.width,
    height: row.height,
    duration: row.details.duration ?? null,
    status: row.status ?? "completed",
    uploadedBy: row.uploadedBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    bucket: { slug: bucket?.slug ?? "", name: bucket?.name ?? "" },
    uses: row.uses,
    missingAlt: row.missingAlt,
    previewUrl: previewUrl(row),
  };
}

function previewUrl(row: Pick<ItemRow, "kind" | "contentId" | "details">): string | null {
  if (row.kind === "image") return `/api/v1/media/image/${row.contentId}`;
  return row.kind === "video" ? chosenStillUrl(row) : null;
}

/** The people who uploaded media (the uploader filter), by name. */
export async function usersForFilter(db: Queryable): Promise<Array<{ id: string; name: string }>> {
  const { rows } = await db.query<{ id: string; name: string }>(
    `SELECT u.id, u.name FROM users u WHERE EXISTS (SELECT 1 FROM media_items i WHERE i.created_by = u.id) ORDER BY lower(u.name)`,
  );
  return rows;
}

/**
 * The locales of an image item's bucket without an alternative text (none for other kinds and unknown items); a use
 * item's own texts over its shared item's.
 */
export async function missingAltOf(db: Queryable, contentId: string): Promise<string[]> {
  const { rows } = await db.query<{ missingAlt: string[] }>(
    prepared(
      `SELECT ${MISSING_ALT} AS "missingAlt" FROM (SELECT content_id, bucket_id, kind, t.descriptions
         FROM media_items JOIN media_item_texts t USING (content_id) WHERE content_id = $1) i JOIN buckets b ON b.id = i.bucket_id`,
    ),
    [contentId],
  );
  return rows[0]?.missingAlt ?? [];
}

/** An item's alternative text and caption in `locale` (else in the first locale that has one) and its credits (a use item's over its shared item's). */
export async function textsOf(db: Queryable, contentId: string, locale: string) {
  const { rows } = await db.query<{ descriptions: { alt?: Record<string, string>; caption?: Record<string, string> }; credits: string }>(
    prepared(`SELECT descriptions, credits FROM media_item_texts WHERE content_id = $1`),
    [contentId],
  );
  const row = rows[0];
  const inLocale = (texts: Record<string, string> | undefined) => texts?.[locale] || Object.values(texts ?? {}).find(Boolean) || null;
  return { alt: inLocale(row?.descriptions.alt), caption: inLocale(row?.descriptions.caption), credits: row?.credits || null };
}
