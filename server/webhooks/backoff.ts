/** A delivery's retries wait at most this long. */
export const LONGEST_DELIVERY_RETRY_MS = 6 * 60 * 60_000;

/**
 * How long a delivery waits after its `attempt`-th attempt (1-based) failed: the base (WEBHOOK_RETRY_BASE_MS,
 * 30 s by default), then four times longer each time (30 s, 2 min, 8 min, 32 min, 2 h 8 min), at most 6 hours.
 */
export function deliveryRetryDelayMs(attempt: number, baseMs: number): number {
  const failedBefore = Math.max(0, Math.floor(attempt) - 1);
  return Math.min(LONGEST_DELIVERY_RETRY_MS, baseMs * 4 ** failedBefore);
}
