/** Internet Explorer version from a user agent: 9, 10, 11, or null for any other browser. */
export function internetExplorerVersion(userAgent: string | null): 9 | 10 | 11 | null {
  if (!userAgent) return null;
  const msie = /MSIE (\d+)\./.exec(userAgent);
  if (msie) {
    const version = Number(msie[1]);
    return version === 9 || version === 10 ? version : null;
  }
  return /Trident\/7\.0/.test(userAgent) && /rv:11\./.test(userAgent) ? 11 : null;
}
