import type { ErrorObject } from "ajv";
import type { Locale } from "@core/locales";
import { translate, translateMessage, type Message } from "@core/messages";
import { fieldPointer } from "@core/schema/errors";
import { validationMessage } from "@core/schema/messages";
import type { JsonSchema } from "@core/schema/normalize";
import { nameToSegments, pointerSegments, pointerToName } from "@core/schema/path";
import { schemaAtName } from "@core/schema/walk";
import { isPlainObject } from "@core/plain-object";
import { parseNumberInput } from "@core/schema/number";
import { fieldKind } from "./field-kind";

/*
 * Messages that say what the value under a field is, where the validator's own message alone would mislead: a
 * field's unreadable input ("“7.5” is not a whole number" rather than 'This field is required'), and a
 * stored value the current schema refuses ('This field is required' plus "Stored value: 1831-02-23").
 */

/** The value at a path of segments in a document, or undefined. */
function valueAt(document: unknown, segments: ReadonlyArray<string | number>): unknown {
  let node = document;
  for (const segment of segments) {
    if (Array.isArray(node) && /^\d+$/.test(String(segment))) node = node[Number(segment)];
    else if (isPlainObject(node) && Object.hasOwn(node, String(segment))) node = node[String(segment)];
    else return undefined;
  }
  return node;
}

/** What is wrong with text a number or integer field cannot read (spec §5: sign, digits, a comma or a dot). */
export function unreadableNumber(text: string, type: "integer" | "number"): Message {
  return { key: type === "integer" ? "content.notWholeNumber" : "content.notNumber", params: { text: shortened(text) } };
}

/**
 * A field whose posted text could not be read as its value keeps the text (core/form/kinds.ts), so the validator
 * says 'This field is required' (its `type` message, spec §5) under a field that shows a value. Such a field's
 * messages are replaced by the one that says what is wrong: the number field's unreadable text, the select's
 * option the enum does not have (only a changed page can post one). `value` is the coerced document; the JSON API
 * does the same, so that the form and the API agree.
 */
export function withUnreadableText(
  byField: Record<string, string[]>,
  value: unknown,
  schema: JsonSchema,
  locale: Locale,
): Record<string, string[]> {
  const typeMessage = validationMessage(locale, "type", {});
  const enumMessage = validationMessage(locale, "enum", {});
  for (const [name, messages] of Object.entries(byField)) {
    // Most errors are neither (a document can have 80,000 unknown properties): no walk through the schema for those.
    if (!name || !(messages.includes(typeMessage) || messages.includes(enumMessage))) continue;
    const field = schemaAtName(schema, name);
    const kind = field ? fieldKind(field) : null;
    const typed = valueAt(value, nameToSegments(name));
    if (typeof typed !== "string") continue;
    // A JSON document can hold readable text ("12", or "2" of an enum [1, 2]): that is a text, not a number, as the validator says.
    if ((kind === "number" || kind === "integer") && parseNumberInput(typed, kind).kind === "invalid") {
      byField[name] = [translateMessage(locale, unreadableNumber(typed, kind))];
    } else if (kind === "enum" && Array.isArray(field?.enum) && !field.enum.some((member) => String(member) === typed)) {
      byField[name] = [enumMessage];
    }
  }
  return byField;
}

/** Keywords that refuse a stored value as a whole: the field may show it, or nothing, with a message that does not say why. */
const REFUSED_VALUE = new Set(["type", "enum", "const", "format"]);

/** A stored value as the editor reads it, at most 80 characters. */
function shown(value: unknown): string {
  return shortened(typeof value === "string" ? value : JSON.stringify(value));
}

const shortened = (text: string) => (text.length > 80 ? `${text.slice(0, 79)}…` : text);

/**
 * A stored document's errors (AJV's `errors` from validating `data`) get the stored value under each field whose
 * value the schema refuses as a whole, after its message: "Stored value: 1831-02-23". A schema change can make a
 * text field a number or a date, and the field then shows the old value, or nothing, under 'This field is required'.
 */
export function withStoredValues(
  byField: Record<string, string[]>,
  errors: readonly ErrorObject[] | null | undefined,
  data: unknown,
  schema: JsonSchema,
  locale: Locale,
): Record<string, string[]> {
  for (const error of errors ?? []) {
    if (!REFUSED_VALUE.has(error.keyword)) continue;
    const pointer = fieldPointer(error);
    const stored = valueAt(data, pointerSegments(pointer));
    const messages = byField[pointerToName(pointer, schema)];
    if (stored === undefined || !messages) continue;
    const note = translate(locale, "content.storedValue", { value: shown(stored) });
    if (!messages.includes(note)) messages.push(note);
  }
  return byField;
}
