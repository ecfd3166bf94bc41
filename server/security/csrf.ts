const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A state-changing request from another site is refused before any work.
 * Browsers send Sec-Fetch-Site and Origin on such requests; API clients that
 * send neither carry no ambient browser credentials to abuse.
 */
export function isCrossSiteRequest(request: Request, publicUrl?: string): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite === "cross-site") return true;
  const origin = request.headers.get("origin");
  if (!origin) return false;
  if (origin === "null") return true;
  return !allowedOrigins(request, publicUrl).includes(origin);
}

function allowedOrigins(request: Request, publicUrl?: string): string[] {
  const origins = [new URL(request.url).origin];
  if (publicUrl) origins.push(new URL(publicUrl).origin);
  return origins;
}
