import type { Logger } from "pino";
import type { Db } from "@server/db/client";
import { deliveryRetryDelayMs } from "./backoff";
import { sendDelivery } from "./send";
import { claimDeliveries, finishDelivery, pruneDeliveries, releaseDelivery, type ClaimedDelivery, type DeliveryOutcome } from "./store";
import { PollingLoop } from "@server/background/polling-loop";

/*
 * The webhook dispatcher: every server runs one (started with the server, stopped before its database closes). It
 * claims due deliveries from the outbox (webhook_deliveries) with FOR UPDATE SKIP LOCKED, so several servers on
 * one PostgreSQL share the work without sending one twice, POSTs each, and records the outcome: delivered, due
 * again after the backoff, or failed for good after the last attempt.
 */

export interface WebhookSettings {
  allowPrivate: boolean;
  retryBaseMs: number;
  maxAttempts: number;
  timeoutMs: number;
}

export interface WebhookDispatcherOptions {
  db: Db;
  logger: Logger;
  settings: WebhookSettings;
  userAgent: string;
  /** How often the outbox is looked at. */
  pollMs?: number;
  /** Deliveries in flight at once. */
  concurrency?: number;
}

const PRUNE_EVERY_MS = 60 * 60_000;

/** The body a receiver gets (docs/webhooks.md): a document event names the document, a release event the release. */
export function deliveryBody(
  delivery: Pick<ClaimedDelivery, "id" | "event" | "bucketSlug" | "contentId" | "versionId" | "releaseId" | "occurredAt">,
): string {
  if (delivery.releaseId)
    return JSON.stringify({
      event: delivery.event,
      releaseId: delivery.releaseId,
      occurredAt: new Date(delivery.occurredAt).toISOString(),
      deliveryId: delivery.id,
    });
  return JSON.stringify({
    event: delivery.event,
    bucket: delivery.bucketSlug,
    contentId: delivery.contentId,
    versionId: delivery.versionId,
    occurredAt: new Date(delivery.occurredAt).toISOString(),
    deliveryId: delivery.id,
  });
}

export class WebhookDispatcher {
  private readonly concurrency: number;
  private readonly inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private readonly loop: PollingLoop;
  private lastPrune = 0;

  constructor(private readonly options: WebhookDispatcherOptions) {
    this.concurrency = options.concurrency ?? 4;
    this.loop = new PollingLoop({
      intervalMs: options.pollMs ?? 1000,
      work: () => this.fill(),
      onError: (error) => options.logger.warn({ err: error }, "webhooks: claiming deliveries failed"),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Whether this server sends deliveries (WEBHOOK_DISPATCHER; not before the background work begins). */
  get isRunning(): boolean {
    return this.loop.isStarted;
  }

  /** Looks at the outbox now. */
  kick(): void {
    this.loop.kick();
  }

  /**
   * Stops claiming, interrupts the attempts in flight and gives their deliveries back (due at once, the attempt not
   * counted), so that the next server to look sends them. Call it before the database closes.
   */
  async stop(): Promise<void> {
    this.loop.stop();
    const running = [...this.inFlight.values()];
    for (const attempt of running) attempt.controller.abort();
    await Promise.all(running.map((attempt) => attempt.done));
  }

  private async fill(): Promise<void> {
    const { db, settings } = this.options;
    if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
      this.lastPrune = Date.now();
      await pruneDeliveries(db);
    }
    while (this.loop.isStarted && this.inFlight.size < this.concurrency) {
      const leaseSeconds = Math.ceil(settings.timeoutMs / 1000) + 30;
      const claimed = await claimDeliveries(db, this.concurrency - this.inFlight.size, leaseSeconds);
      if (claimed.length === 0) return;
      for (const delivery of claimed) {
        const controller = new AbortController();
        const done = this.attempt(delivery, controller.signal)
          .catch((error: unknown) =>
            this.options.logger.error({ err: error, deliveryId: delivery.id }, "webhooks: recording a delivery failed"),
          )
          .finally(() => {
            this.inFlight.delete(delivery.id);
            this.kick();
          });
        this.inFlight.set(delivery.id, { controller, done });
      }
    }
  }

  private async attempt(delivery: ClaimedDelivery, signal: AbortSignal): Promise<void> {
    const { db, settings, logger } = this.options;
    const log = logger.child({ deliveryId: delivery.id, webhookId: delivery.webhookId, event: delivery.event, attempt: delivery.attempts });
    const result = await sendDelivery(
      { url: delivery.url, secret: delivery.secret, event: delivery.event, deliveryId: delivery.id, body: deliveryBody(delivery) },
      { timeoutMs: settings.timeoutMs, allowPrivate: settings.allowPrivate, userAgent: this.options.userAgent, signal },
    );
    if (signal.aborted) {
      await releaseDelivery(db, delivery.id);
      return;
    }
    let outcome: DeliveryOutcome;
    if (result.ok) {
      outcome = { status: "delivered", responseStatus: result.status, excerpt: result.excerpt };
      log.info({ status: result.status }, "webhook delivered");
    } else if (delivery.attempts < settings.maxAttempts) {
      const retryAfterMs = deliveryRetryDelayMs(delivery.attempts, settings.retryBaseMs);
      outcome = { status: "pending", retryAfterMs, responseStatus: result.status, excerpt: result.excerpt, error: result.error };
      log.warn({ status: result.status, error: result.error, retryAfterMs }, "webhook delivery failed; it will be sent again");
      // A retry due before the next poll is looked for when it is due (5 ms late, so that it is due by then).
      this.loop.wakeAfter(retryAfterMs + 5);
    } else {
      outcome = { status: "failed", responseStatus: result.status, excerpt: result.excerpt, error: result.error };
      log.warn({ status: result.status, error: result.error }, "webhook delivery failed for good");
    }
    await finishDelivery(db, delivery.id, outcome);
  }
}
