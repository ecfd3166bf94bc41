import { createInstance, type i18n as I18n, type TFunction } from "i18next";
import { use } from "react";
import { initReactI18next } from "react-i18next";
import type { CataloguePart } from "@core/catalogue-parts";
import { catalogues, loadCatalogue, type Catalogue } from "@core/catalogues";
import type { Message } from "@core/messages";
import { SUPPORTED_LOCALES, type Locale } from "@core/locales";

/** An i18next instance over the catalogues at hand: both languages on the server, the page's own in the browser. */
export function createI18n(locale: Locale): I18n {
  const instance = createInstance();
  const resources = Object.fromEntries(Object.entries(catalogues).map(([language, common]) => [language, { common }]));
  void instance.use(initReactI18next).init({
    resources,
    lng: locale,
    fallbackLng: "en",
    supportedLngs: [...SUPPORTED_LOCALES],
    defaultNS: "common",
    ns: ["common"],
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  given.set(instance.store, new Map(Object.entries(catalogues) as Array<[Locale, Catalogue]>));
  return instance;
}

/**
 * The catalogue object each instance's store was last given per language (the browser's grows as parts arrive).
 * Keyed by the store: useTranslation hands out a new wrapper of the instance on every call, the store is the same.
 */
const given = new WeakMap<I18n["store"], Map<Locale, Catalogue>>();

/**
 * Follows the interface language the root loader answers (the top bar's switch changes it) and the catalogue parts
 * the page needs (core/catalogue-parts.ts). In the browser a language or part not yet fetched suspends the render
 * until it arrives (a navigation keeps the old page shown).
 */
export function useInterfaceLanguage(i18n: I18n, locale: Locale, parts: readonly CataloguePart[] = ["common"]): void {
  const loading = loadCatalogue(locale, parts);
  if (loading) use(loading);
  const catalogue = catalogues[locale];
  const known = given.get(i18n.store) ?? new Map<Locale, Catalogue>();
  if (catalogue && known.get(locale) !== catalogue) {
    i18n.addResourceBundle(locale, "common", catalogue, true, true);
    given.set(i18n.store, known.set(locale, catalogue));
  }
  if (i18n.language !== locale) void i18n.changeLanguage(locale);
}

/** A message of the catalogue in the interface's language; a Message among its params is put into words too. */
export function messageText(t: TFunction, message: Message): string {
  const params = Object.fromEntries(
    Object.entries(message.params ?? {}).map(([name, value]) => [name, typeof value === "object" ? messageText(t, value) : value]),
  );
  return t(message.key, params);
}
