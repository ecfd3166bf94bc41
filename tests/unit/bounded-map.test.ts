import { describe, expect, it } from "vitest";
import { BoundedMap } from "@core/bounded-map";

describe("BoundedMap", () => {
  it("forgets the oldest entry when one more would pass its limit", () => {
    const map = new BoundedMap<string, number>(2);
    map.set("a", 1).set("b", 2).set("c", 3);
    expect([...map.entries()]).toEqual([
      ["b", 2],
      ["c", 3],
    ]);
  });

  it("replaces a known key's value without forgetting another", () => {
    const map = new BoundedMap<string, number>(2);
    map.set("a", 1).set("b", 2).set("a", 3);
    expect([...map.entries()]).toEqual([
      ["a", 3],
      ["b", 2],
    ]);
  });
});
