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
