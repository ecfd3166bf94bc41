import { catalogues, type Catalogue } from "./catalogues";
import type { Locale } from "./locales";

/*
 * The one message catalogue (locales/en, locales/nl, through core/catalogues.ts), for code that runs
 * outside React: validation, media checks, server answers. React components
 * read the same files through i18next (app/lib/i18n.ts); both fill
 * {{param}} placeholders the same way. In the browser only the page's language is there.
 */

type Leaves<T, Prefix extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** Every key of the English catalogue; the Dutch one has the same keys (tests/unit/messages.test.ts). */
export type MessageKey = Leaves<Catalogue>;
/** Values of {{param}} placeholders; a Message as a value is put into words in the same language. */
export type MessageParams = Readonly<Record<string, string | number | boolean | Message>>;

/** A message not yet put into words: translated where the reader's language is known. */
export interface Message {
  key: MessageKey;
  params?: MessageParams;
}

function lookup(catalogue: unknown, key: string): string | undefined {
  let node = catalogue;
  for (const part of key.split(".")) {
    if (typeof node !== "object" || node === null || !Object.prototype.hasOwnProperty.call(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === "string" ? node : undefined;
}

/** Fills {{param}} placeholders once (a value that contains a placeholder is not filled again). */
export function formatMessage(template: string, params: Readonly<Record<string, unknown>>): string {
  return template.replaceAll(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** The message in `locale`, falling back to English for a key only English has. */
export function translate(locale: Locale, key: MessageKey, params: MessageParams = {}): string {
  const template = lookup(catalogues[locale], key) ?? lookup(catalogues.en, key) ?? key;
  const values = Object.fromEntries(
    Object.entries(params).map(([name, value]) => [name, typeof value === "object" ? translateMessage(locale, value) : value]),
  );
  return formatMessage(template, values);
}

export const translateMessage = (locale: Locale, message: Message) => translate(locale, message.key, message.params);

/** Whether a string names a catalogue entry (for keys that arrive as data, e.g. AJV keywords). */
export function isMessageKey(key: string): key is MessageKey {
  return Object.values(catalogues).some((catalogue) => lookup(catalogue, key) !== undefined);
}
