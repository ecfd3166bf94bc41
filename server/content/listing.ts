import { missingLocaleCondition } from "./missing-locale";
import { prepared, type Queryable } from "@server/db/client";
import { likePattern } from "@server/db/like-pattern";
import { pageClause } from "@server/db/page-clause";
import { documentCountSql } from "./document-counts";
import { searchedPageSql } from "./search";
import { publicationState, type PublicationState } from "@core/content/publication";
import { versionColumns, type ContentVersion } from "./store";
import { inScheduledReleaseSql } from "./publication-state";

/*
 * Listing a bucket's documents a page at a time, newest first, searched or not: the API's list, the reference
 * pickers and populate (listContents), and the overview's rows with the bucket's count (listOverview). How these
 * statements are planned: docs/architecture.md "Storage".
 */

/** Newest first, a page at a time; `search` matches any text in the data. */
export async function listContents(
  db: Queryable,
  bucketId: string,
  options: { limit: number; offset?: number; search?: string },
): Promise<ContentVersion[]> {
  const search = options.search?.trim();
  const page = pageClause(options.limit, options.offset);
  if (search) {
    const { rows } = await db.query<ContentVersion>(
      `SELECT ${versionColumns("v.")}
       FROM (${searchedPageSql({ bucket: "$1::uuid", pattern: "$2", text: "$3", page })}) c
       JOIN versions v ON v.version_id = c.latest_version_id
       ORDER BY c.updated_at DESC, c.content_id DESC`,
      [bucketId, likePattern(search), search],
    );
    return rows;
  }
  const { rows } = await db.query<ContentVersion>(
    `SELECT ${versionColumns("v.")}
     FROM contents c JOIN versions v ON v.version_id = c.latest_version_id
     WHERE c.bucket_id = $1
     ORDER BY c.updated_at DESC, c.content_id DESC
     ${page}`,
    [bucketId],
  );
  return rows;
}

export interface OverviewRow {
  contentId: string;
  versionId: string;
  createdAt: Date;
  /** The data's value at the title key (undefined without one). */
  title: unknown;
  /** What exhibits get of it (docs/publishing.md). */
  state: PublicationState;
  /** The whole data, when asked for (`withData`: the translation counts of a multilingual bucket). */
  data?: Record<string, unknown>;
}

/**
 * The overview's filter by publication state (?state=): one more condition on the contents row, as publicationState
 * tells the states apart. The page is still walked in the bucket's order (contents_bucket_updated_idx), or the
 * search's matches tested; the condition only skips rows. Two columns' equality is one the planner guesses true of
 * 1 row in 200 (it keeps no statistics of it), and for so rare a match it read the whole bucket and sorted it
 * (3,000 documents, 70% published: a sequential scan); written as a comparison of an expression it guesses a third,
 * and walks the index as far as its page needs.
 */
const NOT_SCHEDULED = `NOT ${inScheduledReleaseSql("c")}`;
const STATE_CONDITIONS: Record<PublicationState, string> = {
  draft: `c.published_version_id IS NULL AND c.unpublished_at IS NULL AND ${NOT_SCHEDULED}`,
  unpublished: `c.published_version_id IS NULL AND c.unpublished_at IS NOT NULL AND ${NOT_SCHEDULED}`,
  published: `(c.published_version_id = c.latest_version_id)::int > 0 AND ${NOT_SCHEDULED}`,
  changed: `c.published_version_id <> c.latest_version_id AND ${NOT_SCHEDULED}`,
  scheduled: inScheduledReleaseSql("c"),
};

/**
 * The condition, over the contents row `c`, that keeps the documents whose latest version lacks a translation into the
 * locale `parameter` names (server/content/missing-locale.ts).
 */
export const missingTranslationCondition = (schema: unknown, parameter: string): string =>
  `EXISTS (SELECT 1 FROM versions v WHERE v.version_id = c.latest_version_id AND ${missingLocaleCondition(schema, parameter)})`;

/** The condition, over the contents row `c`, that keeps the documents in this publication state. */
export const publicationStateCondition = (state: PublicationState): string => STATE_CONDITIONS[state];

interface OverviewOptions {
  limit: number;
  offset?: number;
  search?: string;
  titleKey: string | null;
  /** Only the documents in this publication state. */
  state?: PublicationState | null;
  /** Only the documents missing a translation into this locale (`schema`: the bucket's). */
  missing?: { locale: string; schema: unknown } | null;
  /** Each document's whole data too, in the same statement. */
  withData?: boolean;
}

/** The overview's one statement (listOverview), for its callers and for EXPLAIN in tests. */
export function overviewStatement(bucketId: string, options: OverviewOptions): { text: string; values: unknown[] } {
  const search = options.search?.trim();
  const offset = options.offset ?? 0;
  const page = pageClause(options.limit, offset);
  // A page past the last (an old link, a remembered page after deletes) reads nothing: OFFSET would walk every
  // document of the bucket to find none.
  const pastTheLast = `${offset} < ${documentCountSql("$1::uuid")}`;
  const missingParameter = `$${search ? 5 : 3}`;
  const condition = [
    pastTheLast,
    ...(options.state ? [STATE_CONDITIONS[options.state]] : []),
    ...(options.missing ? [missingTranslationCondition(options.missing.schema, missingParameter)] : []),
  ].join(" AND ");
  const unsearched = `SELECT c.content_id, c.latest_version_id, c.updated_at, c.published_version_id, c.unpublished_at
         FROM contents c
         WHERE c.bucket_id = $1::uuid AND ${condition}
         ORDER BY c.updated_at DESC, c.content_id DESC
         ${page}`;
  // An empty page still answers one row, for the count, with null document columns. The page is chosen from
  // contents alone and only its documents' versions are read: with the join inside, OFFSET would read the title of
  // every document it skips (page 1,000 of 20 took 460 ms on PGlite).
  const data = options.withData ? ", page.data" : "";
  const text = `SELECT ${documentCountSql("$1::uuid")} AS total, page."contentId", page."versionId", page."createdAt", page.title,
            page."publishedVersionId", page."unpublishedAt", page.scheduled${data}
     FROM buckets b
     LEFT JOIN LATERAL (
       SELECT listed.content_id AS "contentId", v.version_id AS "versionId", v.created_at AS "createdAt",
              v.data -> $2::text AS title, listed.updated_at,${options.withData ? " v.data," : ""}
              listed.published_version_id AS "publishedVersionId", listed.unpublished_at AS "unpublishedAt",
              ${inScheduledReleaseSql("listed")} AS scheduled
       FROM (${search ? searchedPageSql({ bucket: "$1::uuid", pattern: "$3", text: "$4", page, condition, published: true }) : unsearched}) listed
       JOIN versions v ON v.version_id = listed.latest_version_id
     ) page ON true
     WHERE b.id = $1
     ORDER BY page.updated_at DESC, page."contentId" DESC`;
  const values: unknown[] = [bucketId, options.titleKey, ...(search ? [likePattern(search), search] : [])];
  if (options.missing) values.push(options.missing.locale);
  if (search || options.missing) return { text, values };
  // The first page, where nearly every visit lands, is one fixed text (one per state filter): PostgreSQL plans it
  // once per connection. Not a search (its best plan depends on the pattern) nor a later page (one prepared text per
  // page number).
  return { text: offset === 0 ? prepared(text) : text, values };
}

/**
 * A page of the bucket overview in one query: newest first, only the title
 * property of each document's data (not all of it, unless `withData`) and its publication state, and the bucket's
 * document count (null when searching or filtering: the count is of the whole bucket).
 * `search` matches any text in the data, as in listContents; `state` keeps the documents in that state.
 */
export async function listOverview(
  db: Queryable,
  bucketId: string,
  options: OverviewOptions,
): Promise<{ rows: OverviewRow[]; total: number | null }> {
  const search = options.search?.trim();
  const { text, values } = overviewStatement(bucketId, options);
  const { rows } = await db.query<
    { [K in keyof Omit<OverviewRow, "state">]: OverviewRow[K] | null } & {
      total: number;
      publishedVersionId: string | null;
      unpublishedAt: Date | null;
      scheduled: boolean | null;
    }
  >(text, values);
  const page = rows.flatMap(({ contentId, versionId, createdAt, title, publishedVersionId, unpublishedAt, scheduled, data }) =>
    contentId !== null && versionId !== null && createdAt !== null
      ? [
          {
            contentId,
            versionId,
            createdAt,
            title: title ?? undefined,
            state: publicationState({ latestVersionId: versionId, publishedVersionId, unpublishedAt, scheduled: scheduled === true }),
            ...(data ? { data } : {}),
          },
        ]
      : [],
  );
  return { rows: page, total: search || options.state || options.missing ? null : (rows[0]?.total ?? 0) };
}
