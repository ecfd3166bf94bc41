import type { Queryable } from "@server/db/client";
import { searchCondition, searchedSql } from "@server/content/search";
import { likePattern } from "@server/db/like-pattern";
import type { StoredDocument } from "@core/delivery/shape";
import { isPreview, previewSql, type DeliveryView } from "./view";

/*
 * SQL of the delivery API: the published version of documents (docs/publishing.md; a document with none is not
 * there), with the times as ISO strings to the microsecond (the keyset cursor compares them exactly: a JavaScript
 * Date keeps only milliseconds). `updatedAt` is when what exhibits get last changed (published_at), not the last save.
 */

const ISO = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const DOCUMENT_COLUMNS = `c.content_id AS "contentId", c.published_version_id AS "versionId", ${ISO("c.created_at")} AS "createdAt",
  ${ISO("c.published_at")} AS "updatedAt", v.data AS data`;
const STATE_COLUMNS = `c.content_id AS "contentId", c.published_version_id AS "versionId", ${ISO("c.created_at")} AS "createdAt",
  ${ISO("c.published_at")} AS "updatedAt"`;
/** The published version's row: no row for a document that has none. */
const PUBLISHED_VERSION = "JOIN versions v ON v.version_id = c.published_version_id";
const IS_PUBLISHED = "c.published_version_id IS NOT NULL";

/**
 * A subquery answering one latest document as a JSON object (column `document`), for a join with its bucket;
 * without `data` (withData false) it reads no version, only the document's state: what a revalidation needs first.
 */
export const documentJson = (bucketId: string, contentId: string, withData = true) =>
  withData
    ? `SELECT json_build_object('contentId', c.content_id, 'versionId', c.published_version_id, 'createdAt', ${ISO("c.created_at")},
         'updatedAt', ${ISO("c.published_at")}, 'data', v.data) AS document
       FROM contents c ${PUBLISHED_VERSION}
       WHERE c.content_id = ${contentId} AND c.bucket_id = ${bucketId}`
    : `SELECT json_build_object('contentId', c.content_id, 'versionId', c.published_version_id, 'createdAt', ${ISO("c.created_at")},
         'updatedAt', ${ISO("c.published_at")}) AS document
       FROM contents c WHERE c.content_id = ${contentId} AND c.bucket_id = ${bucketId} AND ${IS_PUBLISHED}`;

/** The columns of a document under a preview view (version and time as previewSql names them). */
const viewColumns = (version: string, time: string) =>
  `c.content_id AS "contentId", ${version} AS "versionId", ${ISO("c.created_at")} AS "createdAt", ${ISO(time)} AS "updatedAt", v.data AS data`;

/** Documents of a bucket as a preview view shows them: `where` over c (and v), $1 the bucket. */
async function previewDocuments(
  db: Queryable,
  view: DeliveryView,
  bucketId: string,
  where: (param: (value: unknown) => string) => string,
  tail = "",
): Promise<StoredDocument[]> {
  const params: unknown[] = [bucketId];
  const param = (value: unknown) => `$${params.push(value)}`;
  const sql = previewSql(view, param);
  const { rows } = await db.query<StoredDocument>(
    `SELECT ${viewColumns(sql.version, sql.time)} FROM ${sql.from} WHERE c.bucket_id = $1 AND ${where(param)} ${tail}`,
    params,
  );
  return rows;
}

/** A document's state without its data: enough to name its version, and so its answer, without reading it. */
export type DocumentState = Omit<StoredDocument, "data">;

export async function latestDocument(
  db: Queryable,
  bucketId: string,
  contentId: string,
  view?: DeliveryView,
): Promise<StoredDocument | null> {
  if (view && isPreview(view))
    return (await previewDocuments(db, view, bucketId, (param) => `c.content_id = ${param(contentId)}`))[0] ?? null;
  const { rows } = await db.query<StoredDocument>(
    `SELECT ${DOCUMENT_COLUMNS} FROM contents c ${PUBLISHED_VERSION}
     WHERE c.content_id = $1 AND c.bucket_id = $2`,
    [contentId, bucketId],
  );
  return rows[0] ?? null;
}

/** A singleton bucket's document: its first (and only) one; without withData only its state. */
export async function singletonDocument(db: Queryable, bucketId: string): Promise<StoredDocument | null>;
export async function singletonDocument(
  db: Queryable,
  bucketId: string,
  withData: boolean,
  view?: DeliveryView,
): Promise<StoredDocument | DocumentState | null>;
export async function singletonDocument(
  db: Queryable,
  bucketId: string,
  withData = true,
  view?: DeliveryView,
): Promise<StoredDocument | DocumentState | null> {
  if (view && isPreview(view))
    return (await previewDocuments(db, view, bucketId, () => "true", "ORDER BY c.created_at, c.content_id LIMIT 1"))[0] ?? null;
  const { rows } = await db.query<StoredDocument>(
    withData
      ? `SELECT ${DOCUMENT_COLUMNS} FROM contents c ${PUBLISHED_VERSION}
         WHERE c.bucket_id = $1 AND ${IS_PUBLISHED} ORDER BY c.created_at, c.content_id LIMIT 1`
      : `SELECT ${STATE_COLUMNS} FROM contents c WHERE c.bucket_id = $1 AND ${IS_PUBLISHED} ORDER BY c.created_at, c.content_id LIMIT 1`,
    [bucketId],
  );
  return rows[0] ?? null;
}

/** Latest versions of these documents of one bucket (absent ones are left out). */
export async function latestDocuments(
  db: Queryable,
  bucketId: string,
  contentIds: readonly string[],
  view?: DeliveryView,
): Promise<StoredDocument[]> {
  if (!contentIds.length) return [];
  if (view && isPreview(view)) return previewDocuments(db, view, bucketId, (param) => `c.content_id = ANY(${param(contentIds)}::uuid[])`);
  const { rows } = await db.query<StoredDocument>(
    `SELECT ${DOCUMENT_COLUMNS} FROM contents c ${PUBLISHED_VERSION}
     WHERE c.bucket_id = $1 AND c.content_id = ANY($2::uuid[])`,
    [bucketId, contentIds],
  );
  return rows;
}

/** How a page is ordered: by a time column, or by a property's JSON value (a translated one in one locale). */
export type PageSort =
  | { by: "updatedAt" | "createdAt"; order: "asc" | "desc" }
  | { by: "property"; property: string; locale: string | null; order: "asc" | "desc" };

/** Where the previous page ended: the sort value (an ISO time, or any JSON value) and the contentId. */
export interface PageCursor {
  value: unknown;
  contentId: string;
}

export interface PageQuery {
  sort: PageSort;
  limit: number;
  after: PageCursor | null;
  updatedSince: string | null;
  search: string | null;
}

/** The statement of documentPage, for it and for EXPLAIN in tests: limit + 1 rows, to know whether another page follows. */
export function documentPageStatement(bucketId: string, query: PageQuery, view?: DeliveryView): { text: string; values: unknown[] } {
  const params: unknown[] = [bucketId];
  const param = (value: unknown) => `$${params.push(value)}`;
  // A preview (view.ts) reads another version of each document; the published path's statement stays as it was.
  const preview = view && isPreview(view) ? previewSql(view, param) : null;
  const { sort } = query;
  let sortExpression: string;
  let cursorCast: string;
  if (sort.by === "property") {
    sortExpression =
      sort.locale === null
        ? `coalesce(v.data -> ${param(sort.property)}, 'null'::jsonb)`
        : `coalesce(v.data -> ${param(sort.property)} -> ${param(sort.locale)}, 'null'::jsonb)`;
    cursorCast = "jsonb";
  } else {
    sortExpression = sort.by === "updatedAt" ? (preview?.time ?? "c.published_at") : "c.created_at";
    cursorCast = "timestamptz";
  }
  const where = ["c.bucket_id = $1", ...(preview ? [] : [IS_PUBLISHED])];
  if (query.updatedSince) where.push(`${preview?.time ?? "c.published_at"} >= ${param(query.updatedSince)}::timestamptz`);
  const direction = sort.order === "asc" ? "ASC" : "DESC";
  if (query.after) {
    const value = sort.by === "property" ? JSON.stringify(query.after.value) : query.after.value;
    where.push(
      `(${sortExpression}, c.content_id) ${sort.order === "asc" ? ">" : "<"} (${param(value)}::${cursorCast}, ${param(query.after.contentId)}::uuid)`,
    );
  }
  const sortValue = sort.by === "property" ? sortExpression : ISO(sortExpression);
  const limit = param(query.limit + 1);
  const select = (
    from: string,
    conditions: readonly string[] = [],
    sortKey = false,
  ) => `SELECT ${preview ? viewColumns(preview.version, preview.time) : DOCUMENT_COLUMNS}, ${sortValue} AS "sortValue"${sortKey ? `, ${sortExpression} AS sort_key` : ""}
     FROM ${preview && from === "contents c" ? preview.from : `${from} ${PUBLISHED_VERSION}`}
     WHERE ${[...where, ...conditions].join(" AND ")}
     ORDER BY ${sortExpression} ${direction}, c.content_id ${direction}
     LIMIT ${limit}`;
  // A search in time order reads either its few matches or, for a word most documents hold, the bucket in the page's
  // order from its index (server/content/search.ts); both branches are ordered alike, and only one answers. No index
  // serves a property's order, so there every match is read and sorted, as the whole bucket is without a search.
  let text = select("contents c");
  // A preview's search reads its matches and sorts them (a preview is an editor's check, not an exhibit's traffic); it
  // matches the newest versions' text, a published read the published versions' (docs/publishing.md).
  if (query.search && (sort.by === "property" || preview))
    text = select("contents c", [searchCondition(param(likePattern(query.search)), preview ? "newest" : "published")]);
  else if (query.search) {
    const searched = searchedSql({
      bucket: "$1",
      pattern: param(likePattern(query.search)),
      text: param(query.search),
      branch: (from, test) => select(from, [test], true),
      published: true,
      searched: "published",
    });
    text = `SELECT "contentId", "versionId", "createdAt", "updatedAt", data, "sortValue" FROM (${searched}) page
       ORDER BY sort_key ${direction}, "contentId" ${direction}`;
  }
  return { text, values: params };
}

/** One page of a bucket's documents. */
export async function documentPage(
  db: Queryable,
  bucketId: string,
  query: PageQuery,
  view?: DeliveryView,
): Promise<{ documents: Array<StoredDocument & { sortValue: unknown }>; more: boolean }> {
  const { text, values } = documentPageStatement(bucketId, query, view);
  const { rows } = await db.query<StoredDocument & { sortValue: unknown }>(text, values);
  return { documents: rows.slice(0, query.limit), more: rows.length > query.limit };
}
