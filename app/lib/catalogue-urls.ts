import type { Locale } from "../../core/locales";
import en from "../../locales/en/common.json?url";
import nl from "../../locales/nl/common.json?url";

/**
 * Where the browser fetches each language's messages: the catalogue files as built assets (hashed names, cached for
 * good). The page's <head> preloads its own language's (root.tsx), so the fetch is under way before the scripts run.
 */
export const CATALOGUE_URLS: Record<Locale, string> = { en, nl };
