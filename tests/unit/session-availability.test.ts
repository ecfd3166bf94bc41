import { describe, expect, it } from "vitest";
import { SCREEN_TABLE } from "@screens/table";
import { availabilityStatus } from "@screens/shared/availability";
import { screenFieldErrors } from "@screens/shared/availability-dates";
import { subFormResolver } from "@core/form/subforms";

/* A learning session's availability (specialised-screens/shared/availability.ts, availability-dates.ts): the status the editor's aside tells, and the one
   check of an end before the start, which the shared resolver runs for dle-sessies buckets only. */

describe("availability", () => {
  const today = "2026-11-24";

  it("tells where a session stands on a day", () => {
    expect(availabilityStatus("", undefined, today)).toEqual({ state: "always" });
    expect(availabilityStatus("2026-11-24", "2026-11-24", today)).toEqual({ state: "open", from: "2026-11-24", until: "2026-11-24" });
    expect(availabilityStatus("2026-01-01", "", today)).toEqual({ state: "open", from: "2026-01-01", until: null });
    expect(availabilityStatus("", "2027-01-01", today)).toEqual({ state: "open", from: null, until: "2027-01-01" });
    expect(availabilityStatus("2026-11-25", "2027-01-01", today)).toEqual({ state: "notYet", from: "2026-11-25", until: "2027-01-01" });
    expect(availabilityStatus(undefined, "2026-11-23", today)).toEqual({ state: "ended", from: null, until: "2026-11-23" });
    expect(availabilityStatus("2027-02-01", "2027-01-01", today)).toEqual({ state: "invalid", from: "2027-02-01", until: "2027-01-01" });
    // Anything but a date is no date.
    expect(availabilityStatus("next week", 42, today)).toEqual({ state: "always" });
  });

  it("refuses an end before the start on dle-sessies only", () => {
    const backwards = { availableFrom: "2027-02-01", availableUntil: "2027-01-01" };
    expect(screenFieldErrors("dle-sessies", backwards)).toEqual({
      availableUntil: [{ key: "content.untilBeforeFrom", params: { from: "2027-02-01" } }],
    });
    expect(screenFieldErrors("dle-sessies", { availableFrom: "2027-02-01", availableUntil: "2027-02-01" })).toEqual({});
    expect(screenFieldErrors("dle-sessies", { availableUntil: "2027-01-01" })).toEqual({});
    expect(screenFieldErrors("sessies", backwards)).toEqual({});
    expect(screenFieldErrors("generic", backwards)).toEqual({});
    expect(screenFieldErrors(undefined, backwards)).toEqual({});
  });

  it("puts the message under the field through the shared resolver, in the editor's language", () => {
    const schema = {
      type: "object",
      properties: { availableFrom: { type: "string", format: "date" }, availableUntil: { type: "string", format: "date" } },
    };
    const resolve = (screen: "dle-sessies" | "sessies", messageLocale: "en" | "nl") =>
      subFormResolver({ schema, validate: null, messageLocale, subForms: {}, screen, screens: SCREEN_TABLE })({
        availableFrom: "2027-02-01",
        availableUntil: "2027-01-01",
      });
    expect(resolve("dle-sessies", "en").error).toEqual({ availableUntil: ["The end date cannot be before the start date (2027-02-01)."] });
    expect(resolve("dle-sessies", "nl").error).toEqual({
      availableUntil: ["De einddatum kan niet vóór de begindatum (2027-02-01) liggen."],
    });
    expect(resolve("sessies", "en").error).toBeUndefined();
  });
});
