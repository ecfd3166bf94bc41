import { describe, expect, it } from "vitest";
import { signedMediaUrl, urlExpiry, verifyMediaUrl } from "@server/delivery/media";

/* Signed media URLs of the delivery API across a rotation of the server's secret (SESSION_SECRETS). */

const OLD = "o".repeat(32);
const NEW = "n".repeat(32);
const TTL = { DELIVERY_MEDIA_URL_TTL_SECONDS: 3600 };
const CONTENT = "0b9d8f7e-1c2a-4b3c-8d4e-5f6a7b8c9d0e";

describe("a signed media URL", () => {
  it("signed before the rotation stays valid while the old secret is accepted, and only then", () => {
    const before = { SESSION_SECRET: OLD, ...TTL };
    const url = new URL(signedMediaUrl(before, "http://vitrine.test", CONTENT, "original", urlExpiry(before)));
    expect(verifyMediaUrl({ SESSION_SECRET: NEW, acceptedSessionSecrets: [NEW, OLD], ...TTL }, url)).toBe(true);
    expect(verifyMediaUrl({ SESSION_SECRET: NEW, acceptedSessionSecrets: [NEW], ...TTL }, url)).toBe(false);
  });

  it("is signed with the first secret", () => {
    const rotated = { SESSION_SECRET: NEW, acceptedSessionSecrets: [NEW, OLD], ...TTL };
    const url = new URL(signedMediaUrl(rotated, "http://vitrine.test", CONTENT, "web", urlExpiry(rotated)));
    expect(verifyMediaUrl({ SESSION_SECRET: NEW, ...TTL }, url)).toBe(true);
    expect(verifyMediaUrl({ SESSION_SECRET: OLD, ...TTL }, url)).toBe(false);
  });
});
