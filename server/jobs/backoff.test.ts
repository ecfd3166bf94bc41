import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, retryDelayMs } from "./backoff";

describe("retryDelayMs: the one backoff of failed job attempts", () => {
  it("waits 10 s after the first failed attempt and twice as long after each next one", () => {
    expect([1, 2, 3, 4, 5].map(retryDelayMs)).toEqual([10_000, 20_000, 40_000, 80_000, 160_000]);
  });

  it("never waits longer than 10 minutes", () => {
    expect(retryDelayMs(7)).toBe(600_000);
    expect(retryDelayMs(1000)).toBe(600_000);
  });

  it("treats an attempt number below 1 as the first", () => {
    expect(retryDelayMs(0)).toBe(10_000);
    expect(retryDelayMs(-3)).toBe(10_000);
  });

  it("gives a job three attempts (spec §8 messages after the last)", () => {
    expect(MAX_ATTEMPTS).toBe(3);
  });
});
