import type { MetaDescriptor } from "react-router";
import { pageTitle } from "~/lib/page-title";

/** The title of the history and compare pages: the document's (or the bucket's) name and the product's. */
export function historyMeta({
  data,
  matches,
}: {
  data?: { title: string; bucket: { name: string } };
  matches: ReadonlyArray<{ data?: unknown } | undefined>;
}): MetaDescriptor[] {
  return pageTitle(matches, data?.title || data?.bucket.name);
}
