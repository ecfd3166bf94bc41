const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A state-changing request from another site is refused before any work.
 * Browsers send Sec-Fetch-Site and Origin (and usually Referer) on such
 * requests: a foreign one is refused. A request that sends none of the three
 * is refused too when it carries the session cookie (`sessionCookie`), since
 * a browser always sends at least one: only API clients without ambient
 * browser credentials may omit them. Bearer-authenticated requests never get
 * here (server/http.ts): their cookies are ignored.
 */
export function isCrossSiteRequest(request: Request, publicUrl?: string, sessionCookie?: string): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite === "cross-site") return true;
  const origin = request.headers.get("origin");
  if (origin) return origin === "null" || !allowedOrigins(request, publicUrl).includes(origin);
  if (fetchSite) return false;
  const referer = request.headers.get("referer");
  if (referer) return !allowedOrigins(request, publicUrl).includes(originOf(referer));
  return sessionCookie !== undefined && carriesCookie(request, sessionCookie);
}

function allowedOrigins(request: Request, publicUrl?: string): string[] {
  const origins = [new URL(request.url).origin];
  if (publicUrl) origins.push(new URL(publicUrl).origin);
  return origins;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "null";
  }
}

/** Whether the Cookie header holds a cookie of this name (whatever its value: signed in or not). */
export function carriesCookie(request: Request, name: string): boolean {
  const header = request.headers.get("cookie");
  if (!header) return false;
  return header.split(";").some((pair) => pair.split("=", 1)[0]?.trim() === name);
}
