/** Where a legacy optional-parameter URL lives now (spec §2). */
export function currentEditPath(prefix: string, bucket?: string, contentId?: string, versionId?: string): string {
  if (!bucket) return "/";
  const base = `/${prefix}/${encodeURIComponent(bucket)}`;
  if (!contentId) return `${base}/new`;
  return `${base}/${encodeURIComponent(contentId)}/${versionId ? encodeURIComponent(versionId) : "latest"}`;
}
