import { describe, expect, it } from "vitest";
import { pageClause } from "@server/db/page-clause";

describe("pageClause", () => {
  it("writes a page's size and offset into the statement", () => {
    expect(pageClause(21)).toBe("LIMIT 21 OFFSET 0");
    expect(pageClause(20, 40)).toBe("LIMIT 20 OFFSET 40");
  });

  it("refuses anything but whole, non-negative numbers: its text goes into SQL", () => {
    for (const [limit, offset] of [
      [-1, 0],
      [20, -20],
      [2.5, 0],
      [20, Number.NaN],
      [Number.POSITIVE_INFINITY, 0],
      [20, 2 ** 60],
    ]) {
      expect(() => pageClause(limit!, offset)).toThrow(RangeError);
    }
  });
});
