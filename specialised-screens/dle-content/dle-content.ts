import { isPlainObject } from "@core/plain-object";
import { TRANSLATE_OBJECT_RENDERER, type JsonSchema } from "@core/schema/normalize";
import { titleProperty } from "@core/content/title";
import type { ScreenName } from "@core/content/screens";
import { formNameOf, translatedFields } from "@core/content/translated-texts";
import { translationCompleteness } from "@core/content/translation-completeness";

/*
 * The dle-content screen (docs/screens.md): a learning environment's own texts, previewed per locale as an exhibit
 * shows them, and how far each locale's translation is. Both read the bucket's normalised schema (translated
 * properties are per-locale objects) and the form's value (stored, posted, or typed: the same function on the
 * server and, live, in the browser).
 */

/** How the preview shows a main text: the heading, paragraphs, or a bulleted list. */
export type MainTextRole = "heading" | "paragraphs" | "list";

export interface MainText {
  name: string;
  label: string;
  role: MainTextRole;
  /** Per-locale values (translate: true), or one value for every locale. */
  translated: boolean;
}

const propertiesOf = (schema: JsonSchema) => (isPlainObject(schema.properties) ? (schema.properties as Record<string, JsonSchema>) : {});

const isTranslated = (node: JsonSchema) => node.renderer === TRANSLATE_OBJECT_RENDERER;

/** A text node: a plain string (no format, no reference, no enum), or a translated one (its first locale's schema). */
function textNode(node: JsonSchema): JsonSchema | null {
  const text = isTranslated(node) ? (Object.values(propertiesOf(node))[0] ?? null) : node;
  if (!text || text.type !== "string" || text.format || text._ref || text.enum) return null;
  return text;
}

/** The schema as stored (a translated property as its text), which is what titleProperty reads. */
const storedShape = (schema: JsonSchema): JsonSchema => ({
  ...schema,
  properties: Object.fromEntries(
    Object.entries(propertiesOf(schema)).map(([name, node]) => [name, isTranslated(node) ? (textNode(node) ?? node) : node]),
  ),
});

const labelOf = (name: string, node: JsonSchema) => (typeof node.title === "string" && node.title ? node.title : name);

/**
 * The main texts of a learning environment, in the schema's order with the title first: the title property
 * (core/content/title.ts titleProperty) as the heading; every top-level text with `renderer: "textarea"` as
 * paragraphs; every top-level list of texts (items a text, translated or not) as a bulleted list, in its order.
 * Short texts other than the title, choices, dates, media and references are not main texts.
 */
export function mainTexts(schema: JsonSchema): MainText[] {
  const title = titleProperty(storedShape(schema));
  const texts: MainText[] = [];
  for (const [name, node] of Object.entries(propertiesOf(schema))) {
    if (name === title && textNode(node)) {
      texts.unshift({ name, label: labelOf(name, node), role: "heading", translated: isTranslated(node) });
      continue;
    }
    const text = textNode(node);
    if (text && (node.renderer === "textarea" || text.renderer === "textarea")) {
      texts.push({ name, label: labelOf(name, node), role: "paragraphs", translated: isTranslated(node) });
      continue;
    }
    if (node.type === "array" && isPlainObject(node.items) && !node.renderer && textNode(node.items)) {
      texts.push({ name, label: labelOf(name, node), role: "list", translated: isTranslated(node.items) });
    }
  }
  return texts;
}

const textIn = (value: unknown, locale: string, translated: boolean): string => {
  const text = translated ? (isPlainObject(value) ? value[locale] : undefined) : value;
  return typeof text === "string" ? text : "";
};

/** A main text in one locale: its text (a list: its entries, empty ones left out). */
export function mainTextValue(text: MainText, formValue: unknown, locale: string): string | string[] {
  const value = isPlainObject(formValue) ? formValue[text.name] : undefined;
  if (text.role !== "list") return textIn(value, locale, text.translated);
  const entries = Array.isArray(value) ? value : [];
  return entries.map((entry) => textIn(entry, locale, text.translated)).filter((entry) => entry.trim() !== "");
}

/** A text as paragraphs: split at blank lines; single line breaks stay inside a paragraph. */
export const paragraphsOf = (text: string): string[] =>
  text
    .split(/\n\s*\n/)
    .map((part) => part.trim())
    .filter(Boolean);

/** One translatable field of the form: its form name per locale is `${name}.${locale}`. */
export interface TranslatableField {
  name: string;
  label: string;
}

/** A missing translation: the field's name in the form (`title.en`, `highlights[1].nl`) and its label. */
export interface MissingTranslation {
  name: string;
  label: string;
}

export interface LocaleStatus {
  locale: string;
  filled: number;
  total: number;
  missing: MissingTranslation[];
}

/**
 * The translatable fields a form value has, as core/content/translated-texts.ts finds them (through objects and list
 * entries, and the text of each entry of a translated text list), named as the form names them.
 */
export const translatableFields = (schema: JsonSchema, formValue: unknown): TranslatableField[] =>
  translatedFields(schema, formValue).map((field) => ({ name: formNameOf(field.path), label: field.label }));

/**
 * Per locale of the bucket: how many translatable fields are filled and which are missing, in the form's order: the
 * overview's completeness count (core/content/translation-completeness.ts). The edit page's strip shows it from the
 * stored value and, live, from the form's.
 */
export const translationStatus = (schema: JsonSchema, formValue: unknown, locales: readonly string[]): LocaleStatus[] =>
  translationCompleteness(schema, formValue, locales).map(({ locale, filled, total, missing }) => ({
    locale,
    filled,
    total,
    missing: missing.map((field) => ({ name: `${formNameOf(field.path)}.${locale}`, label: field.label })),
  }));

/** A bucket of the learning environment's sessions, as the dle-content page links to it. */
export interface SessionBucketLinks {
  slug: string;
  name: string;
  screen: ScreenName;
  /** The bucket's overview (core/content/screens.ts overviewPath). */
  href: string;
  count: number;
  /** The first sessions in their stored order: contents.position (placed first), then the newest. */
  first: Array<{ title: string; href: string }>;
}
