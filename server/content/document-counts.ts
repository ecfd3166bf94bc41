/*
 * A bucket's document count, kept with every create and delete so that no page counts 100,000 rows. It is kept in
 * slots (migration 028), one per database connection, so that concurrent saves into one bucket never wait for each
 * other's commit on a shared row; the count is the sum of the bucket's slots.
 */

/** Slots per bucket: connections whose backend pids share a remainder share a slot (they then take turns). */
const SLOTS = 64;

/** A statement (or data-modifying CTE) adding `change` to the count of the bucket `bucket` (both SQL expressions). */
export function changeDocumentCountSql(bucket: string, change: number | string): string {
  return `INSERT INTO bucket_document_counts AS counts (bucket_id, slot, documents)
     VALUES (${bucket}, pg_backend_pid() % ${SLOTS}, ${change})
     ON CONFLICT (bucket_id, slot) DO UPDATE SET documents = counts.documents + excluded.documents`;
}

/**
 * The number of documents of the bucket `bucket` (an SQL expression), as an integer subquery. In a statement that
 * answers one row per document, name the bucket by a parameter, not by a column: the count is then computed once,
 * not once per row.
 */
export function documentCountSql(bucket: string): string {
  return `(SELECT coalesce(sum(counts.documents), 0)::int FROM bucket_document_counts counts WHERE counts.bucket_id = ${bucket})`;
}
