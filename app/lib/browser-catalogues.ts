import type { Catalogue } from "../../core/catalogues";
import type { Locale } from "../../core/locales";
import { CATALOGUE_URLS } from "./catalogue-urls";

/*
 * The browser's core/catalogues.ts (vite.config.ts swaps it in): only the languages fetched so far, the page's own
 * before hydration (entry.client.tsx), another when the editor switches language (useInterfaceLanguage).
 */

export type { Catalogue };

export const catalogues: Partial<Record<Locale, Catalogue>> = {};

const loading = new Map<Locale, Promise<void>>();

/** Fetches a language's catalogue when it is not there yet (one request per language); null when it is. */
export function loadCatalogue(locale: Locale): Promise<void> | null {
  if (catalogues[locale]) return null;
  let promise = loading.get(locale);
  if (!promise) {
    promise = fetchCatalogue(locale).finally(() => loading.delete(locale));
    loading.set(locale, promise);
  }
  return promise;
}

async function fetchCatalogue(locale: Locale): Promise<void> {
  // Same mode and credentials as the <link rel="preload" as="fetch" crossorigin> of the page's head, so it is reused.
  const response = await fetch(CATALOGUE_URLS[locale], { credentials: "same-origin" });
  if (!response.ok) throw new Error(`The ${locale} messages answered ${response.status}`);
  catalogues[locale] = (await response.json()) as Catalogue;
}
