export const SUPPORTED_LOCALES = ["en", "nl"] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];

/** Accepts en, nl and their region forms (en_US, nl-NL); anything else is null. */
export function normalizeLocale(value: string | null | undefined): Locale | null {
  const language = value?.trim().slice(0, 2).toLowerCase();
  return SUPPORTED_LOCALES.find((locale) => locale === language) ?? null;
}
