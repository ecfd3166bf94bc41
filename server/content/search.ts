/**
 * The search condition over contents `c`, for a likePattern (server/db/like-pattern.ts) in `parameter`: the stored text of the latest version
 * through its trigram index (migration 027). It matches as `c.search_text ILIKE parameter` would.
 */
export function searchCondition(parameter: string): string {
  return `search_key(c.search_text) LIKE lower(${parameter})`;
}
