import en from "../locales/en/common.json";
import nl from "../locales/nl/common.json";
import type { Locale } from "./locales";

/*
 * The message catalogues by language, all of them at once. The browser build replaces this module with
 * app/lib/browser-catalogues.ts (vite.config.ts), which holds only the languages it fetched, so a page ships the
 * messages of its own language only; both modules export the same names.
 */

export type Catalogue = typeof en;

export const catalogues: Partial<Record<Locale, Catalogue>> = { en, nl };

/** Fetches a language's catalogue when it is not there yet (the browser's); null when it is (always, here). */
export function loadCatalogue(_locale: Locale): Promise<void> | null {
  return null;
}
