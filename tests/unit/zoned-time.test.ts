import { describe, expect, it } from "vitest";
import { instantToZonedTime, isTimeZone, zonedTimeToInstant } from "@core/zoned-time";

describe("a wall-clock time in a time zone", () => {
  it("is the instant the zone's clocks show it", () => {
    expect(zonedTimeToInstant("2026-12-03T10:00", "Europe/Amsterdam")?.toISOString()).toBe("2026-12-03T09:00:00.000Z");
    expect(zonedTimeToInstant("2026-07-01T10:00", "Europe/Amsterdam")?.toISOString()).toBe("2026-07-01T08:00:00.000Z");
    expect(zonedTimeToInstant("2026-07-01T10:00", "UTC")?.toISOString()).toBe("2026-07-01T10:00:00.000Z");
    expect(zonedTimeToInstant("2026-07-01T10:00", "America/New_York")?.toISOString()).toBe("2026-07-01T14:00:00.000Z");
  });

  it("takes the hour the clocks skip as an hour later, and the hour they show twice as the first", () => {
    // 29 March 2026: 02:00 CET becomes 03:00 CEST. 25 October 2026: 03:00 CEST becomes 02:00 CET.
    expect(zonedTimeToInstant("2026-03-29T02:30", "Europe/Amsterdam")?.toISOString()).toBe("2026-03-29T01:30:00.000Z");
    expect(zonedTimeToInstant("2026-10-25T02:30", "Europe/Amsterdam")?.toISOString()).toBe("2026-10-25T00:30:00.000Z");
    expect(zonedTimeToInstant("2026-10-25T03:30", "Europe/Amsterdam")?.toISOString()).toBe("2026-10-25T02:30:00.000Z");
  });

  it("is null for what is not a time", () => {
    for (const text of ["", "2026-02-30T10:00", "2026-12-03 10:00", "2026-12-03T24:00", "2026-12-03T10:60", "tomorrow"])
      expect(zonedTimeToInstant(text, "Europe/Amsterdam"), text).toBeNull();
  });

  it("shows an instant as the zone's datetime-local value, and back", () => {
    const instant = new Date("2026-12-03T09:00:00Z");
    expect(instantToZonedTime(instant, "Europe/Amsterdam")).toBe("2026-12-03T10:00");
    expect(zonedTimeToInstant(instantToZonedTime(instant, "Asia/Kolkata"), "Asia/Kolkata")).toEqual(instant);
  });

  it("knows a zone from a name that is none", () => {
    expect(isTimeZone("Europe/Amsterdam")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
  });
});
