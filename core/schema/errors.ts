import type { ErrorObject } from "ajv";
import type { Locale } from "@core/locales";
import { validationMessage } from "./messages";
import { TRANSLATE_OBJECT_RENDERER, type JsonSchema } from "./normalize";
import { escapeSegment, pointerSegments, pointerToName } from "./path";
import { schemaAtPath } from "./walk";

export interface FieldErrors {
  /** Messages by form field name (`rooms[0].title.nl`); "" holds errors of the whole document. */
  byField: Record<string, string[]>;
  /** Locales that have at least one error, through the nearest translatable ancestor. */
  locales: string[];
}

/** The pointer of the field an error belongs to: `required` points at the missing property. */
export function fieldPointer(error: ErrorObject): string {
  if (error.keyword === "required") return `${error.instancePath}/${escapeSegment(String(error.params.missingProperty))}`;
  if (error.keyword === "additionalProperties") return `${error.instancePath}/${escapeSegment(String(error.params.additionalProperty))}`;
  return error.instancePath;
}

/** The schema node a pointer leads to, if the schema describes it. */
const schemaAt = (schema: JsonSchema, pointer: string) => schemaAtPath(schema, pointerSegments(pointer));

/**
 * A translated property missing as a whole (every locale left empty) is
 * required in each locale: its errors go under each locale's input, so every
 * locale tab shows one.
 */
function expandMissingTranslation(schema: JsonSchema, error: ErrorObject, pointer: string): string[] {
  if (error.keyword !== "required") return [pointer];
  const node = schemaAt(schema, pointer);
  if (node?.renderer !== TRANSLATE_OBJECT_RENDERER || typeof node.properties !== "object" || node.properties === null) return [pointer];
  return Object.keys(node.properties).map((locale) => `${pointer}/${escapeSegment(locale)}`);
}

/** The form field name of a pointer and the locale of its nearest translatable ancestor, in one walk. */
function fieldOf(schema: JsonSchema, pointer: string): { name: string; locale: string | null } {
  const found: { locale: string | null } = { locale: null };
  const name = pointerToName(pointer, schema, (parent, segment, child) => {
    // Only the bucket's locales: an unknown key under a translated field has no locale tab.
    if (parent?.renderer === TRANSLATE_OBJECT_RENDERER && child) found.locale = segment;
  });
  return { name, locale: found.locale };
}

/** The locale of the nearest translatable ancestor along a pointer, if any. */
export function localeOfPointer(schema: JsonSchema, pointer: string): string | null {
  return fieldOf(schema, pointer).locale;
}

/**
 * AJV errors → messages under their fields, in the configured default locale.
 * With `only`, errors outside those top-level properties are dropped (the partial form).
 */
export function mapValidationErrors(
  errors: readonly ErrorObject[] | null | undefined,
  schema: JsonSchema,
  messageLocale: Locale,
  only?: readonly string[],
): FieldErrors {
  const byField: Record<string, string[]> = {};
  const locales = new Set<string>();
  for (const error of errors ?? []) {
    const message = validationMessage(messageLocale, error.keyword, error.params as Record<string, unknown>);
    for (const pointer of expandMissingTranslation(schema, error, fieldPointer(error))) {
      const { name, locale } = fieldOf(schema, pointer);
      if (only && !only.includes(name.split(/[.[]/)[0] ?? name)) continue;
      const list = (byField[name] ??= []);
      if (!list.includes(message)) list.push(message);
      if (locale) locales.add(locale);
    }
  }
  return { byField, locales: [...locales] };
}
