/*
 * The message catalogue comes in parts (locales/{language}/{part}.json): `common` for every page, `admin` for the
 * pages that alone use its groups (settings, profile, password reset, support, the style guide), `media` for the
 * image, video and file fields. A route whose page needs more than `common` says so in its handle (`messages`,
 * core/route-handle.ts); a media field fetches its part itself, so that a form without one does not pay for it
 * (app/components/form/on-demand-fields.tsx). The browser fetches only the parts of what it shows; the server has
 * them all.
 */

export const CATALOGUE_PARTS = ["common", "admin", "media"] as const;
export type CataloguePart = (typeof CATALOGUE_PARTS)[number];

/** The parts a page needs: `common`, and those its matched routes' handles name. */
export function cataloguePartsOf(handles: readonly unknown[]): CataloguePart[] {
  const parts = new Set<CataloguePart>(["common"]);
  for (const handle of handles) {
    const named = (handle as { messages?: unknown } | null | undefined)?.messages;
    if (Array.isArray(named))
      for (const part of named) if ((CATALOGUE_PARTS as readonly unknown[]).includes(part)) parts.add(part as CataloguePart);
  }
  return CATALOGUE_PARTS.filter((part) => parts.has(part));
}
