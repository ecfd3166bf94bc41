/*
 * API clients (exhibit apps) authenticate with `Authorization: Bearer <clientId>.<secret>`. A browser never
 * sends that header on its own, so a request that carries it is authenticated by it alone: its cookies are
 * ignored (server/web/request-state.ts) and the cross-site checks meant for cookies do not apply (server/http.ts).
 */

/** The credentials of `Authorization: Bearer …`: "" for a Bearer header without a token, null without one. */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (header === null) return null;
  const match = /^Bearer(?:\s+(.*))?$/i.exec(header.trim());
  return match ? (match[1] ?? "").trim() : null;
}

const CLIENT_TOKEN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{43})$/i;

/** A client token's parts, or null when it is not `<uuid>.<43 base64url characters>`. */
export function parseClientToken(token: string): { clientId: string; secret: string } | null {
  const [, clientId, secret] = CLIENT_TOKEN.exec(token) ?? [];
  return clientId && secret ? { clientId: clientId.toLowerCase(), secret } : null;
}
