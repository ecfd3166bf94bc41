import enAdmin from "@locales/en/admin.json";
import enCommon from "@locales/en/common.json";
import enMedia from "@locales/en/media.json";
import enPages from "@locales/en/pages.json";
import enShare from "@locales/en/share.json";
import enPublishing from "@locales/en/publishing.json";
import enHistory from "@locales/en/history.json";
import enReleases from "@locales/en/releases.json";
import nlAdmin from "@locales/nl/admin.json";
import nlCommon from "@locales/nl/common.json";
import nlMedia from "@locales/nl/media.json";
import nlPages from "@locales/nl/pages.json";
import nlShare from "@locales/nl/share.json";
import nlPublishing from "@locales/nl/publishing.json";
import nlHistory from "@locales/nl/history.json";
import nlReleases from "@locales/nl/releases.json";
import type { CataloguePart } from "./catalogue-parts";
import type { Locale } from "./locales";

/*
 * The message catalogues by language, all of them and all their parts (core/catalogue-parts.ts) at once. The
 * browser build replaces this module with app/lib/browser-catalogues.ts (vite.config.ts), which holds only the
 * languages and parts it fetched or was given, so a page ships the messages of its own language and pages only; both
 * modules export the same names.
 */

export type Catalogue = typeof enCommon &
  typeof enAdmin &
  typeof enMedia &
  typeof enPages &
  typeof enShare &
  typeof enPublishing &
  typeof enHistory &
  typeof enReleases;

export const catalogues: Partial<Record<Locale, Catalogue>> = {
  en: { ...enCommon, ...enAdmin, ...enMedia, ...enPages, ...enShare, ...enPublishing, ...enHistory, ...enReleases },
  nl: { ...nlCommon, ...nlAdmin, ...nlMedia, ...nlPages, ...nlShare, ...nlPublishing, ...nlHistory, ...nlReleases },
};

/** Fetches the parts of a language's catalogue not there yet (the browser's); null when all are (always, here). */
export function loadCatalogue(_locale: Locale, _parts?: readonly CataloguePart[]): Promise<void> | null {
  return null;
}

/** Adds the messages of a bundled part (the browser's); here every part is there already. */
export function addMessages(_messages: Partial<Record<Locale, Partial<Catalogue>>>): void {}
