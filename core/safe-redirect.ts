/**
 * Only a same-origin relative path may be a redirect target: "/b/x?y" is
 * fine; "//evil.com", "/\\evil.com", "https://…" and anything odd fall back.
 */
export function safeRedirectPath(target: unknown, fallback = "/"): string {
  if (typeof target !== "string" || !target.startsWith("/") || target.startsWith("//")) return fallback;
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\\\u0000-\u001f\u007f]/.test(target)) return fallback;
  try {
    const url = new URL(target, "http://vitrine.invalid");
    if (url.origin !== "http://vitrine.invalid") return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}
