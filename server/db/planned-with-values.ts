/**
 * Marks a statement whose best plan depends on its values: a search, where the pattern decides whether the trigram
 * index beats walking the bucket (server/content/search.ts). Postgres keeps a prepared statement's generic plan once
 * it looks as good as the plans made for the values, and a generic plan cannot know the bucket's size or the
 * pattern: for a bucket of 2,000 documents it filtered every one (13 ms on PostgreSQL) where the index took 0.6 ms.
 * PGlite, which otherwise prepares each text once (pglite-statements.ts), plans such a statement anew with its
 * values on every call; on PostgreSQL it is never prepared (only `prepared()` texts are), so every call is planned so.
 */
export const PLANNED_WITH_VALUES = "/* planned with its values */";

export function isPlannedWithValues(sql: string): boolean {
  return sql.includes(PLANNED_WITH_VALUES);
}
