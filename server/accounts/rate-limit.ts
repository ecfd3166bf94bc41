import type { Db } from "@server/db/client";

export interface RateLimitRule {
  maxFailures: number;
  windowSeconds: number;
}

export const SIGN_IN_LIMITS = {
  perAccount: { maxFailures: 5, windowSeconds: 15 * 60 },
  perAddress: { maxFailures: 20, windowSeconds: 15 * 60 },
} as const satisfies Record<string, RateLimitRule>;

/**
 * Password reset requests, counted whether or not the address has an account (the limit says nothing about
 * which addresses exist): a few mails per address an hour, and a bound per client address on trying many.
 */
export const PASSWORD_RESET_LIMITS = {
  perAccount: { maxFailures: 3, windowSeconds: 60 * 60 },
  perAddress: { maxFailures: 10, windowSeconds: 60 * 60 },
} as const satisfies Record<string, RateLimitRule>;

/** Seconds until the key may try again, or 0 when it is not limited. */
export async function retryAfterSeconds(db: Db, key: string, rule: RateLimitRule): Promise<number> {
  const { rows } = await db.query<{ wait: number }>(
    `SELECT ceil(extract(epoch FROM window_started_at + make_interval(secs => $2) - now()))::int AS wait
     FROM rate_limits WHERE key = $1 AND failures >= $3 AND window_started_at + make_interval(secs => $2) > now()`,
    [key, rule.windowSeconds, rule.maxFailures],
  );
  return Math.max(0, rows[0]?.wait ?? 0);
}

/** Counts a failure in a fixed window that starts at the first failure. */
export async function recordFailure(db: Db, key: string, rule: RateLimitRule): Promise<void> {
  await db.query(
    `INSERT INTO rate_limits AS r (key, failures, window_started_at) VALUES ($1, 1, now())
     ON CONFLICT (key) DO UPDATE SET
       failures = CASE WHEN r.window_started_at + make_interval(secs => $2) > now() THEN r.failures + 1 ELSE 1 END,
       window_started_at = CASE WHEN r.window_started_at + make_interval(secs => $2) > now() THEN r.window_started_at ELSE now() END`,
    [key, rule.windowSeconds],
  );
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.query("DELETE FROM rate_limits WHERE key = $1", [key]);
}
