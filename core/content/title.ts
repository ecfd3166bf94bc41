import type { JsonSchema } from "@core/schema/normalize";
import { normalizeLocale, type Locale } from "@core/locales";
import { translate } from "@core/messages";
import { isPlainObject } from "@core/plain-object";

/**
 * A document's title for lists: the schema's title-key property, else the
 * first string property; a translated value shows its first locale.
 */
export function titleProperty(schema: unknown): string | null {
  const node = (schema ?? {}) as JsonSchema;
  if (typeof node["title-key"] === "string") return node["title-key"];
  const properties = (node.properties ?? {}) as Record<string, JsonSchema>;
  const first = Object.entries(properties).find(([, property]) => property.type === "string" && !property.format && !property._ref);
  return first?.[0] ?? null;
}

/** A title value as text: the string itself, or a translated value's first filled locale (bucket order first). */
export function titleText(value: unknown, locales: readonly string[] = []): string {
  if (typeof value === "string") return value;
  if (!value || typeof value !== "object") return "";
  const texts = value as Record<string, unknown>;
  const first = [...locales.map((locale) => texts[locale]), ...Object.values(texts)].find(
    (text) => typeof text === "string" && text.trim(),
  );
  return typeof first === "string" ? first : "";
}

export function documentTitle(data: Record<string, unknown>, schema: unknown, locales: readonly string[] = []): string {
  const key = titleProperty(schema);
  return key ? titleText(data[key], locales) : "";
}

/**
 * A duplicate's data with its title marked as a copy ("Title (copy)", "Titel (kopie)"): the title property's text,
 * a translated title in each locale's own word (the editor's interface language for a locale the interface does
 * not have). An empty or missing title stays as it is; the other fields are the original's.
 */
export function markedAsCopy(data: Record<string, unknown>, schema: unknown, interfaceLocale: Locale): Record<string, unknown> {
  const key = titleProperty(schema);
  if (!key || !Object.hasOwn(data, key)) return data;
  const mark = (text: unknown, locale: Locale) =>
    typeof text === "string" && text.trim() ? translate(locale, "form.copyTitle", { title: text }) : text;
  const value = data[key];
  if (typeof value === "string") return { ...data, [key]: mark(value, interfaceLocale) };
  if (!isPlainObject(value)) return data;
  const texts = Object.fromEntries(
    Object.entries(value).map(([locale, text]) => [locale, mark(text, normalizeLocale(locale) ?? interfaceLocale)]),
  );
  return { ...data, [key]: texts };
}
