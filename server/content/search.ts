import { PLANNED_WITH_VALUES } from "../db/planned-with-values";

/**
 * The search condition over contents `c`, for a likePattern (server/db/like-pattern.ts) in `parameter`: the stored text of the latest version
 * through its trigram index (migration 027). It matches as `c.search_text ILIKE parameter` would. A statement with it
 * is planned with its values on every call (planned-with-values.ts): whether the index or the bucket's own order is
 * the faster way depends on the pattern and on the bucket's size. Name the bucket by a parameter, not through a join
 * (`c.bucket_id = $1`, not `= b.id`): only then does the planner know how many documents this bucket holds.
 */
export function searchCondition(parameter: string): string {
  return `${PLANNED_WITH_VALUES} search_key(c.search_text) LIKE lower(${parameter})`;
}

/**
 * How many matches the trigram index may hand over before a search counts as common. The planner cannot tell a
 * common word from a rare one (the texts are too long for Postgres to keep statistics of them; it guesses from the
 * pattern's length), and the index is the wrong way for a word most documents hold: at 100,000 documents that all
 * name their maker, every one was read and tested to find the newest twenty (1.35 s on PGlite, all other requests
 * waiting). Past this many, the newest documents are tested one by one in the bucket's order instead, which for a
 * common word finds a page at once.
 */
export const COMMON_SEARCH_MATCHES = 1000;

/**
 * A page of the bucket's documents that match a search, newest first: a query answering the contents columns
 * `content_id`, `latest_version_id` and `updated_at`. `bucket` names the bucket's parameter, `pattern` the
 * likePattern's and `text` the searched text's (the same words, unescaped); `page` is the page's clause
 * (server/db/page-clause.ts); `walkCondition` is added to the walk in the bucket's order.
 *
 * The index's matches are taken up to COMMON_SEARCH_MATCHES: fewer, and they are all there are, sorted here. As many,
 * and the walk answers instead, testing documents newest first until the page is full. The walk's test is the same
 * match written so the index cannot serve it (`strpos`), and so the planner guesses it true of a third of the rows
 * and walks in order rather than testing every document and sorting.
 */
export function searchedPageSql(options: { bucket: string; pattern: string; text: string; page: string; walkCondition?: string }): string {
  const { bucket, pattern, text, page, walkCondition } = options;
  return `WITH matches AS MATERIALIZED (
      SELECT c.content_id, c.latest_version_id, c.updated_at
      FROM contents c
      WHERE c.bucket_id = ${bucket} AND ${searchCondition(pattern)}
      LIMIT ${COMMON_SEARCH_MATCHES}
    )
    (SELECT content_id, latest_version_id, updated_at FROM matches
     WHERE (SELECT count(*) FROM matches) < ${COMMON_SEARCH_MATCHES}
     ORDER BY updated_at DESC, content_id DESC
     ${page})
    UNION ALL
    (SELECT c.content_id, c.latest_version_id, c.updated_at
     FROM contents c
     WHERE (SELECT count(*) FROM matches) >= ${COMMON_SEARCH_MATCHES} AND c.bucket_id = ${bucket}
       AND strpos(search_key(c.search_text), lower(${text})) > 0 ${walkCondition ? `AND ${walkCondition}` : ""}
     ORDER BY c.updated_at DESC, c.content_id DESC
     ${page})`;
}
