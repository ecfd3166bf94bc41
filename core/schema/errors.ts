import type { ErrorObject } from "ajv";
import type { Locale } from "../locales";
import { validationMessage } from "./messages";
import { TRANSLATE_OBJECT_RENDERER, type JsonSchema } from "./normalize";
import { pointerToName } from "./path";

export interface FieldErrors {
  /** Messages by form field name (`rooms[0].title.nl`); "" holds errors of the whole document. */
  byField: Record<string, string[]>;
  /** Locales that have at least one error, through the nearest translatable ancestor. */
  locales: string[];
}

/** A property name as one JSON Pointer segment (RFC 6901), as AJV writes instancePath. */
const escapeSegment = (name: string) => name.replaceAll("~", "~0").replaceAll("/", "~1");
const unescapeSegment = (segment: string) => segment.replaceAll("~1", "/").replaceAll("~0", "~");

/** The pointer of the field an error belongs to: `required` points at the missing property. */
export function fieldPointer(error: ErrorObject): string {
  if (error.keyword === "required") return `${error.instancePath}/${escapeSegment(String(error.params.missingProperty))}`;
  if (error.keyword === "additionalProperties") return `${error.instancePath}/${escapeSegment(String(error.params.additionalProperty))}`;
  return error.instancePath;
}

/** The schema node a pointer leads to, if the schema describes it. */
function schemaAt(schema: JsonSchema, pointer: string): JsonSchema | null {
  let node: unknown = schema;
  for (const segment of pointer.split("/").slice(1).map(unescapeSegment)) {
    if (typeof node !== "object" || node === null) return null;
    const current = node as JsonSchema;
    const properties = current.properties as Record<string, unknown> | undefined;
    node = /^\d+$/.test(segment) && current.items ? current.items : properties && Object.prototype.hasOwnProperty.call(properties, segment) ? properties[segment] : null;
  }
  return typeof node === "object" && node !== null ? (node as JsonSchema) : null;
}

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

/** The locale of the nearest translatable ancestor along a pointer, if any. */
export function localeOfPointer(schema: JsonSchema, pointer: string): string | null {
  let node: unknown = schema;
  let locale: string | null = null;
  for (const segment of pointer.split("/").slice(1).map(unescapeSegment)) {
    if (typeof node !== "object" || node === null) break;
    const current = node as JsonSchema;
    const properties = current.properties as Record<string, unknown> | undefined;
    const known = !!properties && Object.prototype.hasOwnProperty.call(properties, segment);
    // Only the bucket's locales: an unknown key under a translated field has no locale tab.
    if (current.renderer === TRANSLATE_OBJECT_RENDERER && known) locale = segment;
    node = /^\d+$/.test(segment) && current.items ? current.items : known ? properties![segment] : undefined;
  }
  return locale;
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
      const name = pointerToName(pointer);
      if (only && !only.includes(name.split(/[.[]/)[0]!)) continue;
      const list = (byField[name] ??= []);
      if (!list.includes(message)) list.push(message);
      const locale = localeOfPointer(schema, pointer);
      if (locale) locales.add(locale);
    }
  }
  return { byField, locales: [...locales] };
}
