import type { DocumentWebhookEvent, ReleaseWebhookEvent } from "@core/webhook-forms";

/*
 * The outbox: what a document's save, delete, publish or unpublish (and a release's publish or rollback) records for
 * the webhooks that want it. The store's statements include this SQL (server/content/store.ts: createContent,
 * saveVersion, deleteContent; server/content/publishing.ts: applyPublications; server/content/release-rollout.ts), so a
 * delivery is recorded in the same statement or transaction as the change: never lost when the change commits,
 * never sent when it rolls back. Every path that changes a document goes through those functions.
 */

/**
 * An INSERT of one pending delivery per webhook that subscribes to `event` for the bucket. `bucket`, `contentId`
 * and `versionId` are SQL expressions (parameters such as "$2", or columns of `from`); `from` names extra rows the
 * insert depends on (a CTE that returns a row only when the change happened).
 */
export function enqueueDeliveriesSql(
  event: DocumentWebhookEvent,
  sql: { bucket: string; contentId: string; versionId: string; from?: string },
): string {
  return `INSERT INTO webhook_deliveries (webhook_id, event, bucket_slug, content_id, version_id)
     SELECT w.id, '${event}', b.slug, ${sql.contentId}, ${sql.versionId}
     FROM ${sql.from ? `${sql.from} CROSS JOIN ` : ""}webhooks w JOIN buckets b ON b.id = ${sql.bucket}
     WHERE '${event}' = ANY (w.events) AND (w.all_buckets OR b.id = ANY (w.bucket_ids))`;
}

/**
 * An INSERT of one pending delivery of a release's event per webhook that subscribes to it for any bucket of the
 * release's documents (every bucket, or one of those chosen). `release` is an SQL expression of the release's id.
 * Its documents' own events (document.published, document.unpublished) are recorded beside it, one per document.
 */
export function enqueueReleaseDeliveriesSql(event: ReleaseWebhookEvent, sql: { release: string }): string {
  return `INSERT INTO webhook_deliveries (webhook_id, event, release_id)
     SELECT w.id, '${event}', ${sql.release}
     FROM webhooks w
     WHERE '${event}' = ANY (w.events)
       AND (w.all_buckets OR w.bucket_ids && ARRAY(SELECT ri.bucket_id FROM release_items ri WHERE ri.release_id = ${sql.release}))`;
}
