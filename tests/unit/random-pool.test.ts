import { describe, expect, it } from "vitest";
import { pooledRandomBytes } from "@server/security/random-pool";

describe("the random pool behind CSP nonces", () => {
  it("never hands out the same bytes twice, across refills, and each answer is its own copy", () => {
    const seen = new Set<string>();
    const first = pooledRandomBytes(16);
    const copy = Buffer.from(first);
    for (let i = 0; i < 1000; i++) seen.add(pooledRandomBytes(16).toString("hex")); // about four refills
    expect(seen.size).toBe(1000);
    expect(seen.has(first.toString("hex"))).toBe(false);
    expect(first.equals(copy)).toBe(true); // refilling the pool did not change bytes already handed out
  });

  it("refuses a request larger than the pool", () => {
    expect(() => pooledRandomBytes(4097)).toThrow(RangeError);
  });
});
