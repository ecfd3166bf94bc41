import { createInstance, type i18n as I18n, type TFunction } from "i18next";
import type { Message } from "../../core/messages";
import { initReactI18next } from "react-i18next";
import en from "../../locales/en/common.json";
import nl from "../../locales/nl/common.json";
import { SUPPORTED_LOCALES, type Locale } from "../../core/locales";

/** Message sets en_US and nl_NL of the spec, keyed by language. */
export const resources = { en: { common: en }, nl: { common: nl } } as const;

export function createI18n(locale: Locale): I18n {
  const instance = createInstance();
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

/** A message of the catalogue in the interface's language; a Message among its params is put into words too. */
export function messageText(t: TFunction, message: Message): string {
  const params = Object.fromEntries(
    Object.entries(message.params ?? {}).map(([name, value]) => [name, typeof value === "object" ? messageText(t, value) : value]),
  );
  return t(message.key, params);
}
