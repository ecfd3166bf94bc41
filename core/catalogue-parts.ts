/*
 * The message catalogue comes in parts (locales/{language}/{part}.json): `common` for every page, `admin` for the
 * pages that alone use its groups (settings, profile, password reset, support, the style guide). A route whose page
 * needs more than `common` says so in its handle (`messages`, core/route-handle.ts); the browser fetches only the
 * parts of the pages it shows. The server has them all.
 */

export const CATALOGUE_PARTS = ["common", "admin"] as const;
export type CataloguePart = (typeof CATALOGUE_PARTS)[number];

/** The parts a page needs: `common`, and those its matched routes' handles name. */
export function cataloguePartsOf(handles: readonly unknown[]): CataloguePart[] {
  const parts = new Set<CataloguePart>(["common"]);
  for (const handle of handles) {
    const named = (handle as { messages?: unknown } | null | undefined)?.messages;
    if (Array.isArray(named)) for (const part of named) if ((CATALOGUE_PARTS as readonly unknown[]).includes(part)) parts.add(part as CataloguePart);
  }
  return CATALOGUE_PARTS.filter((part) => parts.has(part));
}
