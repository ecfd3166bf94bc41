import type { MetaDescriptor } from "react-router";

/** The title of the history and compare pages: the document's (or the bucket's) name and the product's. */
export function historyMeta({ data, matches }: { data?: { title: string; bucket: { name: string } }; matches: ReadonlyArray<{ data?: unknown } | undefined> }): MetaDescriptor[] {
  const product = (matches[0]?.data as { config?: { productName: string } } | undefined)?.config?.productName ?? "Vitrine";
  return [{ title: `${data?.title || data?.bucket.name || ""} · ${product}` }];
}
