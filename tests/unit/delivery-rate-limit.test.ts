import { describe, expect, it } from "vitest";
import { TokenBuckets } from "@server/delivery/rate-limit";

describe("the delivery API's token buckets", () => {
  it("allows a minute's worth at once, then one more as each token comes back", () => {
    let now = 0;
    const buckets = new TokenBuckets(60, () => now);
    for (let i = 0; i < 60; i += 1) expect(buckets.take("a")).toBe(0);
    expect(buckets.take("a")).toBe(1); // 60 a minute: one a second
    expect(buckets.take("b")).toBe(0);
    now += 1000;
    expect(buckets.take("a")).toBe(0);
    expect(buckets.take("a")).toBeGreaterThan(0);
  });

  it("says how long until the next token, rounded up to whole seconds", () => {
    let now = 0;
    const buckets = new TokenBuckets(2, () => now);
    buckets.take("a");
    buckets.take("a");
    expect(buckets.take("a")).toBe(30);
    now += 29_500;
    expect(buckets.take("a")).toBe(1);
  });

  it("does not limit at 0", () => {
    const buckets = new TokenBuckets(0);
    for (let i = 0; i < 1000; i += 1) expect(buckets.take("a")).toBe(0);
  });
});
