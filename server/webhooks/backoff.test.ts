import { describe, expect, it } from "vitest";
import { deliveryRetryDelayMs, LONGEST_DELIVERY_RETRY_MS } from "./backoff";

describe("deliveryRetryDelayMs", () => {
  it("waits the base after the first failure, then four times longer each time", () => {
    expect([1, 2, 3, 4, 5].map((attempt) => deliveryRetryDelayMs(attempt, 30_000))).toEqual([
      30_000, 120_000, 480_000, 1_920_000, 7_680_000,
    ]);
  });

  it("waits at most six hours", () => {
    expect(deliveryRetryDelayMs(6, 30_000)).toBe(LONGEST_DELIVERY_RETRY_MS);
    expect(deliveryRetryDelayMs(20, 30_000)).toBe(LONGEST_DELIVERY_RETRY_MS);
  });

  it("follows a short base (tests) the same way", () => {
    expect([1, 2, 3].map((attempt) => deliveryRetryDelayMs(attempt, 50))).toEqual([50, 200, 800]);
    expect(deliveryRetryDelayMs(0, 50)).toBe(50);
  });
});
