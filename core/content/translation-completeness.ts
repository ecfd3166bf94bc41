import { isFilled, localeValue, translatedFields, type TextPathSegment } from "./translated-texts";

/*
 * How far each locale's translation of a document is (issue 34): the one count behind the overview's column and
 * filter ("missing nl") and the dle-content screen's translation strip.
 *
 * The rule: a document's translated fields are those translatedFields finds (every translated property reached
 * through objects, present or not, and through the entries its lists have; each entry of a translated text list).
 * A locale's field is filled when it holds a text other than white space (or, for a translated non-text, a value).
 */

export interface MissingField {
  path: TextPathSegment[];
  label: string;
}

export interface LocaleCompleteness {
  locale: string;
  filled: number;
  total: number;
  /** The fields the locale lacks, in the schema's order. */
  missing: MissingField[];
}

/** Per locale of the bucket: how many of the document's translated fields are filled, and which are not. */
export function translationCompleteness(schema: unknown, data: unknown, locales: readonly string[]): LocaleCompleteness[] {
  const fields = translatedFields(schema, data);
  return locales.map((locale) => {
    const missing = fields
      .filter((field) => !isFilled(localeValue(field, locale)))
      .map((field) => ({ path: field.path, label: field.label }));
    return { locale, filled: fields.length - missing.length, total: fields.length, missing };
  });
}
