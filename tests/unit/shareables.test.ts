import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { createShareSchema, lastShareDay, shareExpiry, shareState } from "@core/content/shareables";

/* The shareable link's form and expiry (core/content/shareables.ts). */

const CONTENT = "11111111-1111-4111-8111-111111111111";
const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries({
    intent: "create",
    bucket: "artworks",
    contentId: CONTENT,
    version: "latest",
    expiry: "7",
    ...fields,
  }))
    data.append(name, value);
  return parseWithZod(data, { schema: createShareSchema });
};
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe("the share form", () => {
  it("takes the latest or a version id, a number of days or a date up to 90 days ahead", () => {
    expect(form({}).status).toBe("success");
    expect(form({ version: CONTENT, expiry: "30" }).status).toBe("success");
    expect(form({ expiry: "date", expiresOn: day(0) }).status).toBe("success");
    expect(form({ expiry: "date", expiresOn: lastShareDay() }).status).toBe("success");
  });

  it("refuses a wrong version or expiry and a date that is missing, malformed, past or too late", () => {
    const errors = (fields: Record<string, string>) => form(fields).reply().error;
    expect(errors({ version: "v1" })).toEqual({ version: ["shareables.errors.versionInvalid"] });
    expect(errors({ expiry: "365" })).toEqual({ expiry: ["shareables.errors.expiryInvalid"] });
    expect(errors({ expiry: "date" })).toEqual({ expiresOn: ["shareables.errors.dateRequired"] });
    expect(errors({ expiry: "date", expiresOn: "2026-02-30" })).toEqual({ expiresOn: ["shareables.errors.dateInvalid"] });
    expect(errors({ expiry: "date", expiresOn: day(-1) })).toEqual({ expiresOn: ["shareables.errors.datePast"] });
    expect(errors({ expiry: "date", expiresOn: day(91) })).toEqual({ expiresOn: ["shareables.errors.dateTooLate"] });
  });
});

describe("expiry and state", () => {
  it("expires days from now, or at the end of the chosen day (UTC)", () => {
    const now = new Date("2026-11-24T10:00:00Z");
    expect(shareExpiry({ expiry: "1" }, now).toISOString()).toBe("2026-11-25T10:00:00.000Z");
    expect(shareExpiry({ expiry: "30" }, now).toISOString()).toBe("2026-12-24T10:00:00.000Z");
    expect(shareExpiry({ expiry: "date", expiresOn: "2026-12-01" }, now).toISOString()).toBe("2026-12-01T23:59:59.999Z");
    expect(lastShareDay(now)).toBe("2027-02-22");
  });

  it("is revoked before expired, expired at its expiry", () => {
    const now = new Date("2026-11-24T10:00:00Z");
    expect(shareState({ expiresAt: "2026-11-25T00:00:00Z", revokedAt: null }, now)).toBe("active");
    expect(shareState({ expiresAt: now, revokedAt: null }, now)).toBe("expired");
    expect(shareState({ expiresAt: "2026-11-20T00:00:00Z", revokedAt: "2026-11-19T00:00:00Z" }, now)).toBe("revoked");
  });
});
