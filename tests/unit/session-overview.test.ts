import { describe, expect, it } from "vitest";
import { availabilityOf, formatDuration, movedOrder } from "@screens/shared/session-overview";

describe("movedOrder", () => {
  it("puts the session right before or after its neighbour, wherever either was", () => {
    expect(movedOrder(["a", "b", "c", "d"], "d", { before: "b" })).toEqual(["a", "d", "b", "c"]);
    expect(movedOrder(["a", "b", "c", "d"], "a", { after: "c" })).toEqual(["b", "c", "a", "d"]);
    expect(movedOrder(["a", "b"], "a", { before: "b" })).toEqual(["a", "b"]);
  });

  it("refuses a session or a neighbour that is not there, and a move next to itself", () => {
    expect(movedOrder(["a", "b"], "x", { before: "a" })).toBeNull();
    expect(movedOrder(["a", "b"], "a", { after: "x" })).toBeNull();
    expect(movedOrder(["a", "b"], "a", { after: "a" })).toBeNull();
  });
});

describe("availabilityOf", () => {
  const today = "2026-11-24";
  it("counts both ends as available days", () => {
    expect(availabilityOf({ availableFrom: "2026-11-24", availableUntil: "2026-11-24" }, today).state).toBe("open");
    expect(availabilityOf({ availableFrom: "2026-11-25" }, today).state).toBe("notYet");
    expect(availabilityOf({ availableUntil: "2026-11-23" }, today).state).toBe("noLonger");
    expect(availabilityOf({}, today)).toEqual({ from: null, until: null, state: "always" });
  });

  it("ignores values that are not dates", () => {
    expect(availabilityOf({ availableFrom: "soon", availableUntil: 3 }, today).state).toBe("always");
  });
});

describe("formatDuration", () => {
  it("writes m:ss, and h:mm:ss from an hour", () => {
    expect(formatDuration(0)).toBe("0:00");
    expect(formatDuration(62.4)).toBe("1:02");
    expect(formatDuration(3725)).toBe("1:02:05");
  });
});
