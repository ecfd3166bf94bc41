/** Attempts a job gets; after the last one fails it fails for good with the spec's message. */
export const MAX_ATTEMPTS = 3;

const FIRST_RETRY_MS = 10_000;
const LONGEST_RETRY_MS = 10 * 60_000;

/**
 * How long a job waits before it runs again after its `attempt`-th attempt (1-based) failed: 10 s, then twice as
 * long each time, at most 10 minutes.
 */
export function retryDelayMs(attempt: number): number {
  const failedBefore = Math.max(0, Math.floor(attempt) - 1);
  return Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** failedBefore);
}
