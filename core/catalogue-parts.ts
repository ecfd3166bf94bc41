/*
 * The message catalogue comes in parts (locales/{language}/{part}.json): `common` for every page, `admin` for the
 * pages that alone use its groups (settings, profile, password reset, support, the style guide), `media` for the
 * image, video and file fields, `pages` for what a generic document's page never shows: home, sign-in and sign-up, no
 * access, the overviews, the screens' own (session overview and editor, clip cards, trend and DLE content screens),
 * the words the settings and profile forms share with sign-up, and the Internet Explorer notice (only the server
 * renders it: the browsers it is for run none of the pages' scripts). A route whose page needs more than `common` says
 * so in its handle (`messages`, core/route-handle.ts); a field kind whose messages are in another part fetches it
 * itself, so that a form without one does not pay for it (app/components/form/on-demand-kinds.ts). The browser fetches only the parts of what it shows, one request
 * each; the server has them all.
 *
 * `share` (the share panel's, the shared link's and the copy field's messages) is not fetched: it comes inside the
 * code that shows it (app/components/share/share-messages.ts, both languages), so that a stored document's page, which
 * shows the share panel, makes no request more for it and a new document's page, which does not, loads none of it.
 * `publishing` (states, publish and unpublish) and `history` (the history panel and page, the compare view) come the
 * same way: app/components/publishing/publishing-messages.ts, app/components/history/history-messages.ts; and
 * `releases` (the releases' pages, Add to release): app/components/releases/release-messages.ts.
 */

export const CATALOGUE_PARTS = ["common", "admin", "media", "pages"] as const;
export type CataloguePart = (typeof CATALOGUE_PARTS)[number];

/** The parts the browser gets with the code that shows them, not by a request of their own. */
export const BUNDLED_PARTS = ["share", "publishing", "history", "releases"] as const;
type BundledPart = (typeof BUNDLED_PARTS)[number];
/** Every part, fetched or bundled: one file per part and language (marked pure: no page's code keeps it). */
export const MESSAGE_FILES: readonly (CataloguePart | BundledPart)[] = /* @__PURE__ */ (
  CATALOGUE_PARTS as readonly (CataloguePart | BundledPart)[]
).concat(BUNDLED_PARTS);

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
