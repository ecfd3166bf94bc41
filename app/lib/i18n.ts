import { createInstance, type i18n as I18n, type TFunction } from "i18next";
import { use } from "react";
import { initReactI18next } from "react-i18next";
import { catalogues, loadCatalogue } from "../../core/catalogues";
import type { Message } from "../../core/messages";
import { SUPPORTED_LOCALES, type Locale } from "../../core/locales";

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
  return instance;
}

/**
 * Follows the interface language the root loader answers (the top bar's switch changes it). In the browser a
 * language not yet fetched suspends the render until its catalogue arrives (a navigation keeps the old page shown).
 */
export function useInterfaceLanguage(i18n: I18n, locale: Locale): void {
  const loading = loadCatalogue(locale);
  if (loading) use(loading);
  if (i18n.language === locale) return;
  const catalogue = catalogues[locale];
  if (catalogue && !i18n.hasResourceBundle(locale, "common")) i18n.addResourceBundle(locale, "common", catalogue);
  void i18n.changeLanguage(locale);
}

/** A message of the catalogue in the interface's language; a Message among its params is put into words too. */
export function messageText(t: TFunction, message: Message): string {
  const params = Object.fromEntries(
    Object.entries(message.params ?? {}).map(([name, value]) => [name, typeof value === "object" ? messageText(t, value) : value]),
  );
  return t(message.key, params);
}
