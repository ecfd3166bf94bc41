import type { Db, Queryable } from "@server/db/client";
import { recordActivity } from "@server/admin/activity";
import type { User } from "@server/accounts/users";
import { randomToken } from "@server/security/tokens";
import type { Message } from "@core/messages";
import type { WebhookEvent } from "@core/webhook-forms";

/*
 * Webhooks and their deliveries: the SQL of the admin pages (/settings/webhooks) and of the dispatcher. Every admin
 * change is recorded with recordActivity in the same transaction.
 */

export interface Webhook {
  id: string;
  url: string;
  events: WebhookEvent[];
  allBuckets: boolean;
  /** The chosen buckets' current slugs (a deleted bucket drops out). */
  bucketSlugs: string[];
  createdAt: Date;
  createdByName: string | null;
  updatedAt: Date;
}

export interface WebhookSummary extends Webhook {
  pending: number;
  failed: number;
  lastDelivery: { status: DeliveryStatus; attempts: number; at: Date } | null;
}

export type DeliveryStatus = "pending" | "delivering" | "delivered" | "failed";

export interface Delivery {
  id: string;
  webhookId: string;
  event: WebhookEvent;
  /** A document event's bucket (its slug then); null for a release event. */
  bucketSlug: string | null;
  /** The document; for a release event (no document) the release's id, as in `releaseId`: what the log names. */
  contentId: string;
  /** A document event's version; null for a release event. */
  versionId: string | null;
  /** A release event's release (release.published, release.rolled_back); null for a document event. */
  releaseId: string | null;
  occurredAt: Date;
  redeliveryOf: string | null;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date;
  lastAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: Message | null;
  lastResponse: string | null;
  deliveredAt: Date | null;
}

/** A secret the server makes: 32 random bytes, base64url, with a prefix that says what it is. */
export function generateWebhookSecret(): string {
  return `whsec_${randomToken(32)}`;
}

const WEBHOOK_COLUMNS = `w.id, w.url, w.events, w.all_buckets AS "allBuckets",
  coalesce((SELECT array_agg(b.slug ORDER BY b.position, b.name) FROM buckets b WHERE b.id = ANY (w.bucket_ids)), '{}') AS "bucketSlugs",
  w.created_at AS "createdAt", u.name AS "createdByName", w.updated_at AS "updatedAt"`;

export async function listWebhooks(db: Queryable): Promise<WebhookSummary[]> {
  const { rows } = await db.query<
    Webhook & { pending: number; failed: number; lastStatus: DeliveryStatus | null; lastAttempts: number | null; lastAt: Date | null }
  >(
    `SELECT ${WEBHOOK_COLUMNS},
       (SELECT count(*)::int FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.status IN ('pending', 'delivering')) AS pending,
       (SELECT count(*)::int FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.status = 'failed') AS failed,
       last.status AS "lastStatus", last.attempts AS "lastAttempts", last.occurred_at AS "lastAt"
     FROM webhooks w
     LEFT JOIN users u ON u.id = w.created_by
     LEFT JOIN LATERAL (SELECT d.status, d.attempts, d.occurred_at FROM webhook_deliveries d WHERE d.webhook_id = w.id ORDER BY d.seq DESC LIMIT 1) last ON true
     ORDER BY w.created_at DESC, w.id`,
  );
  return rows.map(({ lastStatus, lastAttempts, lastAt, ...row }) => ({
    ...row,
    lastDelivery: lastStatus && lastAt ? { status: lastStatus, attempts: lastAttempts ?? 0, at: lastAt } : null,
  }));
}

export async function findWebhook(db: Queryable, id: string): Promise<Webhook | null> {
  const { rows } = await db.query<Webhook>(
    `SELECT ${WEBHOOK_COLUMNS} FROM webhooks w LEFT JOIN users u ON u.id = w.created_by WHERE w.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

export interface WebhookInput {
  url: string;
  events: WebhookEvent[];
  /** null: every bucket, now and later. */
  bucketSlugs: string[] | null;
}

/** The ids of the buckets with these slugs (current slugs; the form offers only those). */
async function bucketIds(db: Queryable, slugs: string[] | null): Promise<string[]> {
  if (!slugs?.length) return [];
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM buckets WHERE slug = ANY ($1::text[])`, [slugs]);
  return rows.map((row) => row.id);
}

/** The host and path an admin knows a webhook by, in the activity log (never its query, which may hold a token). */
function subjectOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname}`;
}

export async function createWebhook(db: Db, actor: Pick<User, "id" | "name">, input: WebhookInput & { secret: string }): Promise<Webhook> {
  return db.transaction(async (tx) => {
    const ids = await bucketIds(tx, input.bucketSlugs);
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO webhooks (url, secret, events, all_buckets, bucket_ids, created_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [input.url, input.secret, input.events, input.bucketSlugs === null, ids, actor.id],
    );
    const id = rows[0]?.id;
    if (!id) throw new Error("the webhook was not created");
    await recordActivity(tx, actor, {
      area: "webhook",
      action: "created",
      subject: subjectOf(input.url),
      details: { id, events: input.events, buckets: input.bucketSlugs },
    });
    const webhook = await findWebhook(tx, id);
    if (!webhook) throw new Error("the webhook was not created");
    return webhook;
  });
}

/** Changes a webhook; `secret` replaces its secret when given. False when there is no such webhook. */
export async function updateWebhook(
  db: Db,
  actor: Pick<User, "id" | "name">,
  id: string,
  input: WebhookInput & { secret: string | null },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const ids = await bucketIds(tx, input.bucketSlugs);
    const { rowCount } = await tx.query(
      `UPDATE webhooks SET url = $2, events = $3, all_buckets = $4, bucket_ids = $5, secret = coalesce($6, secret), updated_at = now() WHERE id = $1`,
      [id, input.url, input.events, input.bucketSlugs === null, ids, input.secret],
    );
    if (rowCount === 0) return false;
    await recordActivity(tx, actor, {
      area: "webhook",
      action: "updated",
      subject: subjectOf(input.url),
      details: { id, events: input.events, buckets: input.bucketSlugs, secretReplaced: input.secret !== null },
    });
    return true;
  });
}

/** Deletes a webhook and its delivery log; deliveries not yet sent are never sent. */
export async function deleteWebhook(db: Db, actor: Pick<User, "id" | "name">, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ url: string }>(`DELETE FROM webhooks WHERE id = $1 RETURNING url`, [id]);
    if (!rows[0]) return false;
    await recordActivity(tx, actor, { area: "webhook", action: "deleted", subject: subjectOf(rows[0].url), details: { id } });
    return true;
  });
}

const DELIVERY_COLUMNS = `d.id, d.webhook_id AS "webhookId", d.event, d.bucket_slug AS "bucketSlug",
  coalesce(d.content_id, d.release_id) AS "contentId", d.version_id AS "versionId", d.release_id AS "releaseId", d.occurred_at AS "occurredAt", d.redelivery_of AS "redeliveryOf", d.status, d.attempts,
  d.next_attempt_at AS "nextAttemptAt", d.last_attempt_at AS "lastAttemptAt", d.last_status AS "lastStatus",
  d.last_error AS "lastError", d.last_response AS "lastResponse", d.delivered_at AS "deliveredAt"`;

/** A page of a webhook's delivery log, newest first. */
export async function listDeliveries(db: Queryable, webhookId: string, options: { limit: number; offset?: number }): Promise<Delivery[]> {
  const { rows } = await db.query<Delivery>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE d.webhook_id = $1 ORDER BY d.seq DESC LIMIT $2 OFFSET $3`,
    [webhookId, options.limit, options.offset ?? 0],
  );
  return rows;
}

/** "Send again": a new delivery of the same change, due now. Null when the webhook has no such delivery. */
export async function redeliver(db: Queryable, webhookId: string, deliveryId: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO webhook_deliveries (webhook_id, event, bucket_slug, content_id, version_id, release_id, occurred_at, redelivery_of)
     SELECT webhook_id, event, bucket_slug, content_id, version_id, release_id, occurred_at, id FROM webhook_deliveries
     WHERE id = $1 AND webhook_id = $2
     RETURNING id`,
    [deliveryId, webhookId],
  );
  return rows[0]?.id ?? null;
}

// --- The dispatcher's side -------------------------------------------------------------------------------------

export interface ClaimedDelivery extends Delivery {
  url: string;
  secret: string;
}

/**
 * Claims up to `limit` due deliveries (FOR UPDATE SKIP LOCKED: several servers on one database never take the same
 * one), counting the attempt. A claimed delivery's next_attempt_at is its lease's end: past it, a delivery whose
 * server died mid-attempt is due again.
 */
export async function claimDeliveries(db: Queryable, limit: number, leaseSeconds: number): Promise<ClaimedDelivery[]> {
  const { rows } = await db.query<ClaimedDelivery>(
    `WITH claimed AS (
       UPDATE webhook_deliveries SET status = 'delivering', attempts = attempts + 1, last_attempt_at = now(),
         next_attempt_at = now() + make_interval(secs => $2)
       WHERE id IN (
         SELECT id FROM webhook_deliveries
         WHERE status IN ('pending', 'delivering') AND next_attempt_at <= now()
         ORDER BY next_attempt_at, seq LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING *
     )
     SELECT ${DELIVERY_COLUMNS}, w.url, w.secret FROM claimed d JOIN webhooks w ON w.id = d.webhook_id`,
    [limit, leaseSeconds],
  );
  return rows;
}

export type DeliveryOutcome =
  | { status: "delivered"; responseStatus: number; excerpt: string }
  | { status: "pending"; retryAfterMs: number; responseStatus: number | null; excerpt: string | null; error: Message }
  | { status: "failed"; responseStatus: number | null; excerpt: string | null; error: Message };

export async function finishDelivery(db: Queryable, id: string, outcome: DeliveryOutcome): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET status = $2, last_status = $3, last_response = $4, last_error = $5,
       delivered_at = CASE WHEN $2 = 'delivered' THEN now() ELSE NULL END,
       next_attempt_at = CASE WHEN $2 = 'pending' THEN now() + $6::float8 * interval '1 millisecond' ELSE next_attempt_at END
     WHERE id = $1 AND status = 'delivering'`,
    [
      id,
      outcome.status,
      outcome.responseStatus,
      outcome.excerpt,
      "error" in outcome ? outcome.error : null,
      "retryAfterMs" in outcome ? outcome.retryAfterMs : 0,
    ],
  );
}

/** A stopping server gives an interrupted attempt back: due again at once, the attempt not counted. */
export async function releaseDelivery(db: Queryable, id: string): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET status = 'pending', attempts = greatest(attempts - 1, 0), next_attempt_at = now() WHERE id = $1 AND status = 'delivering'`,
    [id],
  );
}

/** The log keeps finished deliveries this long. */
export const DELIVERY_LOG_DAYS = 30;

export async function pruneDeliveries(db: Queryable): Promise<void> {
  await db.query(
    `DELETE FROM webhook_deliveries WHERE status IN ('delivered', 'failed') AND occurred_at < now() - make_interval(days => $1)`,
    [DELIVERY_LOG_DAYS],
  );
}
