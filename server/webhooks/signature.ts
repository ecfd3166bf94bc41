import { createHmac, timingSafeEqual } from "node:crypto";

/*
 * The signature of a delivery (docs/webhooks.md): `Vitrine-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>`, the
 * HMAC keyed with the webhook's secret over `<t>.<body>` (the exact bytes of the body). The timestamp inside the
 * signed text lets a receiver refuse a replayed old delivery.
 */

export const SIGNATURE_HEADER = "Vitrine-Signature";
export const EVENT_HEADER = "Vitrine-Event";
export const DELIVERY_HEADER = "Vitrine-Delivery";

/** How far a signature's timestamp may be from the receiver's clock (verifySignature's default). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

function hmacHex(secret: string, timestamp: number, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

/** The header's value for `body` sent at `timestamp` (unix seconds). */
export function signatureHeader(secret: string, body: string, timestamp: number): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`;
}

/**
 * What a receiver does (and the tests do): true when one of the header's v1 signatures is the body's, made with
 * `secret`, and its timestamp is within `toleranceSeconds` of `now`.
 */
export function verifySignature(
  secret: string,
  body: string,
  header: string | null | undefined,
  options: { now?: number; toleranceSeconds?: number } = {},
): boolean {
  if (!header) return false;
  const parts = header.split(",").map((part) => part.trim().split("="));
  const timestamp = Number(parts.find(([name]) => name === "t")?.[1]);
  if (!Number.isInteger(timestamp)) return false;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS)) return false;
  const expected = Buffer.from(hmacHex(secret, timestamp, body), "hex");
  return parts.some(([name, value]) => {
    if (name !== "v1" || !value || !/^[0-9a-f]{64}$/.test(value)) return false;
    return timingSafeEqual(Buffer.from(value, "hex"), expected);
  });
}
