import type { WebhookEvent } from "@core/webhook-forms";

/*
 * The outbox: what a document's save or delete records for the webhooks that want it. The store's statements
 * include this SQL (server/content/store.ts: createContent, saveVersion, deleteContent), so a delivery is recorded
 * in the same statement or transaction as the change: never lost when the change commits, never sent when it
 * rolls back. Every path that changes a document goes through those three functions.
 */

/**
 * An INSERT of one pending delivery per webhook that subscribes to `event` for the bucket. `bucket`, `contentId`
 * and `versionId` are SQL expressions (parameters such as "$2", or columns of `from`); `from` names extra rows the
 * insert depends on (a CTE that returns a row only when the change happened).
 */
export function enqueueDeliveriesSql(
  event: WebhookEvent,
  sql: { bucket: string; contentId: string; versionId: string; from?: string },
): string {
  return `INSERT INTO webhook_deliveries (webhook_id, event, bucket_slug, content_id, version_id)
     SELECT w.id, '${event}', b.slug, ${sql.contentId}, ${sql.versionId}
     FROM ${sql.from ? `${sql.from}, ` : ""}webhooks w JOIN buckets b ON b.id = ${sql.bucket}
     WHERE '${event}' = ANY (w.events) AND (w.all_buckets OR b.id = ANY (w.bucket_ids))`;
}
