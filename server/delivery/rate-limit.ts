/*
 * The delivery API's rate limit per API client: an in-process token bucket (docs/delivery.md). Each client has a
 * bucket of `perMinute` tokens, refilled continuously at perMinute/60 a second; a request takes one, and a client
 * with none left gets 429 with Retry-After. In-process means per server: behind several servers each allows its share
 * of the limit (DELIVERY_RATE_LIMIT_SERVERS), which holds as long as the load balancer spreads a client's requests.
 * It costs no query, which the read API's throughput budget needs; sign-in's limits, which must hold across servers
 * exactly, stay in the rate_limits table.
 */

interface Bucket {
  tokens: number;
  updated: number;
}

/** Clients idle this long are forgotten (their bucket is full again by then anyway). */
const IDLE_MS = 5 * 60 * 1000;
const MAX_CLIENTS = 100_000;

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private lastSweep = 0;

  constructor(
    readonly perMinute: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes a token: 0 when allowed, else the seconds until one is back (Retry-After). */
  take(key: string): number {
    if (this.perMinute <= 0) return 0;
    const now = this.now();
    this.sweep(now);
    const perMs = this.perMinute / 60_000;
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, updated: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.updated) * perMs);
    bucket.updated = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
  }

  private sweep(now: number) {
    if (now - this.lastSweep < IDLE_MS && this.buckets.size < MAX_CLIENTS) return;
    this.lastSweep = now;
    for (const [key, bucket] of this.buckets) if (now - bucket.updated > IDLE_MS) this.buckets.delete(key);
  }
}

const byServer = new WeakMap<object, TokenBuckets>();

/** What one of several servers allows a client: its share of the limit, rounded up (0: no limit). */
export const serverShare = (config: { DELIVERY_RATE_LIMIT_PER_MINUTE: number; DELIVERY_RATE_LIMIT_SERVERS: number }): number =>
  Math.ceil(config.DELIVERY_RATE_LIMIT_PER_MINUTE / config.DELIVERY_RATE_LIMIT_SERVERS);

/** The limiter of one server (its config object), made on first use. */
export function limiterOf(config: { DELIVERY_RATE_LIMIT_PER_MINUTE: number; DELIVERY_RATE_LIMIT_SERVERS: number }): TokenBuckets {
  let limiter = byServer.get(config);
  if (!limiter) byServer.set(config, (limiter = new TokenBuckets(serverShare(config))));
  return limiter;
}
