import type { CataloguePart } from "@core/catalogue-parts";
import type { Catalogue } from "@core/catalogues";
import type { Locale } from "@core/locales";
import { CATALOGUE_URLS } from "./catalogue-urls";

/*
 * The browser's core/catalogues.ts (vite.config.ts swaps it in): only the languages and parts fetched so far, the
 * page's own before hydration (entry.client.tsx), more when the editor switches language or opens a page that needs
 * another part (useInterfaceLanguage), and the bundled parts whose code was loaded (addMessages). Each arrival
 * replaces the language's object with a larger one.
 */

export type { Catalogue };

export const catalogues: Partial<Record<Locale, Catalogue>> = {};

const fetched = new Set<string>();

/** Adds a bundled part's messages (core/catalogue-parts.ts), given by the module of the code that shows them. */
export function addMessages(messages: Partial<Record<Locale, Partial<Catalogue>>>): void {
  for (const [locale, part] of Object.entries(messages) as Array<[Locale, Partial<Catalogue>]>) {
    catalogues[locale] = { ...catalogues[locale], ...part } as Catalogue;
  }
}
const loading = new Map<string, Promise<void>>();

/** Fetches the parts of a language's catalogue not there yet (one request per part); null when all are there. */
export function loadCatalogue(locale: Locale, parts: readonly CataloguePart[] = ["common"]): Promise<void> | null {
  const missing = parts.filter((part) => !fetched.has(`${locale}/${part}`));
  if (!missing.length) return null;
  // One promise per set of parts while it is under way, so a render that suspends on it finds the same one again.
  const key = `${locale}/${missing.join(",")}`;
  let promise = loading.get(key);
  if (!promise) {
    promise = Promise.all(missing.map((part) => fetchPart(locale, part)))
      .then(() => undefined)
      .finally(() => loading.delete(key));
    loading.set(key, promise);
  }
  return promise;
}

const parts = new Map<string, Promise<void>>();

function fetchPart(locale: Locale, part: CataloguePart): Promise<void> {
  const key = `${locale}/${part}`;
  let promise = parts.get(key);
  if (!promise) {
    promise = (async () => {
      // Same mode and credentials as the <link rel="preload" as="fetch" crossorigin> of the page's head, so it is reused.
      const response = await fetch(CATALOGUE_URLS[locale][part], { credentials: "same-origin" });
      if (!response.ok) throw new Error(`The ${locale} messages (${part}) answered ${response.status}`);
      const messages = (await response.json()) as Partial<Catalogue>;
      catalogues[locale] = { ...catalogues[locale], ...messages } as Catalogue;
      fetched.add(key);
    })().finally(() => parts.delete(key));
    parts.set(key, promise);
  }
  return promise;
}
