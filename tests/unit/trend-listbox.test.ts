import { describe, expect, it } from "vitest";
import { listboxKey } from "~/components/clip-cards/trend-listbox";

const labels = ["", "Craft revival", "Green cities", "Gold leaf", "Light and water"];

describe("the trend listbox's keys", () => {
  it("moves with the arrows, Home and End, within the list", () => {
    expect(listboxKey("ArrowDown", 1, labels)).toEqual({ kind: "move", to: 2 });
    expect(listboxKey("ArrowDown", 4, labels)).toEqual({ kind: "move", to: 4 });
    expect(listboxKey("ArrowUp", 0, labels)).toEqual({ kind: "move", to: 0 });
    expect(listboxKey("Home", 3, labels)).toEqual({ kind: "move", to: 0 });
    expect(listboxKey("End", 0, labels)).toEqual({ kind: "move", to: 4 });
  });

  it("jumps to the next title starting with a letter, wrapping round, never to the empty choice", () => {
    expect(listboxKey("g", 0, labels)).toEqual({ kind: "move", to: 2 });
    expect(listboxKey("G", 2, labels)).toEqual({ kind: "move", to: 3 });
    expect(listboxKey("g", 3, labels)).toEqual({ kind: "move", to: 2 });
    expect(listboxKey("z", 0, labels)).toBeNull();
  });

  it("chooses with Enter and space, closes with Escape and Tab, and ignores other keys", () => {
    expect(listboxKey("Enter", 2, labels)).toEqual({ kind: "choose" });
    expect(listboxKey(" ", 2, labels)).toEqual({ kind: "choose" });
    expect(listboxKey("Escape", 2, labels)).toEqual({ kind: "escape" });
    expect(listboxKey("Tab", 2, labels)).toEqual({ kind: "tab" });
    expect(listboxKey("Shift", 2, labels)).toBeNull();
  });
});
