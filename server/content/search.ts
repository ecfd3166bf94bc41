import { PLANNED_WITH_VALUES } from "@server/db/planned-with-values";

/**
 * The search condition over contents `c`, for a likePattern (server/db/like-pattern.ts) in `parameter`: the stored text of the latest version
 * through its trigram index (migration 027). It matches as `c.search_text ILIKE parameter` would. A statement with it
 * is planned with its values on every call (planned-with-values.ts): whether the index or the bucket's own order is
 * the faster way depends on the pattern and on the bucket's size. Name the bucket by a parameter, not through a join
 * (`c.bucket_id = $1`, not `= b.id`): only then does the planner know how many documents this bucket holds.
 */
export function searchCondition(parameter: string, searched: SearchedText = "newest"): string {
  return `${PLANNED_WITH_VALUES} search_key(${TEXT_COLUMNS[searched]}) LIKE lower(${parameter})`;
}

/**
 * Which text a search matches: the newest version's (the back office) or the published one's (the delivery API,
 * docs/publishing.md; null, and so never matched, while nothing is published). Each has its trigram index.
 */
export type SearchedText = "newest" | "published";
const TEXT_COLUMNS: Record<SearchedText, string> = { newest: "c.search_text", published: "c.published_search_text" };

/**
 * How many matches the trigram index may hand over before a search counts as common. The planner cannot tell a
 * common word from a rare one (the texts are too long for Postgres to keep statistics of them; it guesses from the
 * pattern's length), and the index is the wrong way for a word most documents hold: at 100,000 documents that all
 * name their maker, every one was read and tested to find the newest twenty (1.35 s on PGlite, all other requests
 * waiting). Past this many, the newest documents are tested one by one in the bucket's order instead, which for a
 * common word finds a page at once.
 */
export const COMMON_SEARCH_MATCHES = 1000;

/** The contents columns a search's matches carry (all but the stored text and `singleton`), so that either branch reads them as `c`. */
const MATCH_COLUMNS = "c.content_id, c.bucket_id, c.latest_version_id, c.created_at, c.updated_at, c.position";
/**
 * What the delivery API's branches read besides (its published versions, docs/publishing.md), and the overview's (the
 * publication state, core/content/publication.ts).
 */
const PUBLISHED_COLUMNS = "c.published_version_id, c.published_at, c.unpublished_at";

/**
 * A search of one bucket as two branches of which one answers. `branch(from, test)` writes a branch's SELECT: it reads
 * its contents rows `FROM ${from}` (as `c`, with the columns of MATCH_COLUMNS) and adds `AND ${test}` to
 * its WHERE. `bucket` names the bucket's parameter, `pattern` the likePattern's and `text` the searched text's (the
 * same words, unescaped). With `published`, the matches carry the published version's columns too (the delivery API);
 * `searched` says which text is matched (SearchedText).
 *
 * The index's matches are taken up to COMMON_SEARCH_MATCHES: fewer, and they are all there are, and the first branch
 * reads them. As many, and the second reads the bucket's contents, testing each: in the branch's order, as far as
 * its LIMIT needs when an index serves that order. Its test is the same match written so the trigram index cannot
 * serve it (`strpos`), and so the planner guesses it true of a third of the rows and walks in order rather than
 * testing every document and sorting.
 */
export function searchedSql(options: {
  bucket: string;
  pattern: string;
  text: string;
  branch: (from: string, test: string) => string;
  published?: boolean;
  searched?: SearchedText;
}): string {
  const { bucket, pattern, text, branch, searched = "newest" } = options;
  const columns = options.published ? `${MATCH_COLUMNS}, ${PUBLISHED_COLUMNS}` : MATCH_COLUMNS;
  const common = `(SELECT count(*) FROM matches) >= ${COMMON_SEARCH_MATCHES}`;
  return `WITH matches AS MATERIALIZED (
      SELECT ${columns}
      FROM contents c
      WHERE c.bucket_id = ${bucket} AND ${searchCondition(pattern, searched)}
      LIMIT ${COMMON_SEARCH_MATCHES}
    )
    (${branch("matches c", `NOT ${common}`)})
    UNION ALL
    (${branch("contents c", `${common} AND c.bucket_id = ${bucket} AND strpos(search_key(${TEXT_COLUMNS[searched]}), lower(${text})) > 0`)})`;
}

/**
 * A page of the bucket's documents that match a search (searchedSql): a query answering the contents columns
 * `content_id`, `latest_version_id`, `updated_at` and `position` (with `published`, `published_version_id` and
 * `unpublished_at` too: the publication state), newest first or in `order` (over `c`; an index should serve it, as
 * contents_bucket_updated_idx and contents_bucket_position_idx do). `page` is the page's clause
 * (server/db/page-clause.ts); `condition`, over `c`, is added to both branches.
 */
export function searchedPageSql(options: {
  bucket: string;
  pattern: string;
  text: string;
  page: string;
  condition?: string;
  order?: string;
  published?: boolean;
}): string {
  const { page, condition, order = "c.updated_at DESC, c.content_id DESC" } = options;
  const publication = options.published ? ", c.published_version_id, c.unpublished_at" : "";
  return searchedSql({
    ...options,
    branch: (from, test) => `SELECT c.content_id, c.latest_version_id, c.updated_at, c.position${publication}
       FROM ${from}
       WHERE ${test}${condition ? ` AND ${condition}` : ""}
       ORDER BY ${order}
       ${page}`,
  });
}
