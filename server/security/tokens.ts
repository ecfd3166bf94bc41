import { createHash, randomBytes } from "node:crypto";

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** Tokens are stored hashed: a leaked table does not leak live sessions or codes. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}
