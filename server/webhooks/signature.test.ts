import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signatureHeader, verifySignature } from "./signature";

const secret = "whsec_test-secret-of-enough-length";
const body = JSON.stringify({
  event: "document.saved",
  bucket: "artworks",
  contentId: "c",
  versionId: "v",
  occurredAt: "2026-01-01T00:00:00.000Z",
  deliveryId: "d",
});

describe("delivery signatures", () => {
  it("is t=<unix>,v1=<hex HMAC-SHA256 of '<t>.<body>'>", () => {
    const header = signatureHeader(secret, body, 1_760_000_000);
    const expected = createHmac("sha256", secret).update(`1760000000.${body}`).digest("hex");
    expect(header).toBe(`t=1760000000,v1=${expected}`);
  });

  it("verifies with the same secret and body within the tolerance", () => {
    const now = 1_760_000_000;
    const header = signatureHeader(secret, body, now);
    expect(verifySignature(secret, body, header, { now })).toBe(true);
    expect(verifySignature(secret, body, header, { now: now + 299 })).toBe(true);
  });

  it("refuses another secret, a changed body, an old timestamp and malformed headers", () => {
    const now = 1_760_000_000;
    const header = signatureHeader(secret, body, now);
    expect(verifySignature("another secret", body, header, { now })).toBe(false);
    expect(verifySignature(secret, `${body} `, header, { now })).toBe(false);
    expect(verifySignature(secret, body, header, { now: now + 301 })).toBe(false);
    expect(verifySignature(secret, body, header.replace("t=1760000000", "t=1760000001"), { now })).toBe(false);
    expect(verifySignature(secret, body, null, { now })).toBe(false);
    expect(verifySignature(secret, body, "v1=abc", { now })).toBe(false);
    expect(verifySignature(secret, body, `t=${now},v1=zz`, { now })).toBe(false);
  });
});
