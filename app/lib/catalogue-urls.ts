import type { CataloguePart } from "@core/catalogue-parts";
import type { Locale } from "@core/locales";
import enAdmin from "@locales/en/admin.json?url";
import enCommon from "@locales/en/common.json?url";
import enMedia from "@locales/en/media.json?url";
import enPages from "@locales/en/pages.json?url";
import nlAdmin from "@locales/nl/admin.json?url";
import nlCommon from "@locales/nl/common.json?url";
import nlMedia from "@locales/nl/media.json?url";
import nlPages from "@locales/nl/pages.json?url";

/**
 * Where the browser fetches each language's messages, part by part (core/catalogue-parts.ts): the catalogue files as
 * built assets (hashed names, cached for good). The page's <head> preloads the parts of its own language it needs
 * (root.tsx, and a media field its part: on-demand-fields.tsx), so the fetch is under way before the scripts run.
 */
export const CATALOGUE_URLS: Record<Locale, Record<CataloguePart, string>> = {
  en: { common: enCommon, admin: enAdmin, media: enMedia, pages: enPages },
  nl: { common: nlCommon, admin: nlAdmin, media: nlMedia, pages: nlPages },
};
