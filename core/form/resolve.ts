import type { ValidateFunction } from "ajv";
import { inspectPayload, MAX_FORM_LIST_LENGTH } from "../content/payload";
import { mapValidationErrors } from "../schema/errors";
import type { Locale } from "../locales";
import type { JsonSchema } from "../schema/normalize";
import { nameToSegments } from "../schema/path";
import { coerceFormValue } from "./kinds";

/** Hidden form fields that carry the save's bookkeeping, not document data. */
export const CONTENT_ID_FIELD = "__contentId";
export const BASE_VERSION_FIELD = "__baseVersionId";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Whether a form field name (`rooms[0].title.nl`) is a field of the schema, so the form renders its errors. */
export function isSchemaField(schema: JsonSchema, name: string): boolean {
  let node: unknown = schema;
  for (const segment of nameToSegments(name)) {
    if (!isObject(node)) return false;
    if (typeof segment === "number") {
      node = node.items;
    } else {
      const properties = node.properties;
      if (!isObject(properties) || !Object.prototype.hasOwnProperty.call(properties, segment)) return false;
      node = properties[segment];
    }
  }
  return isObject(node);
}

/**
 * Conform's resolver for a bucket form, the same in the action and in the
 * browser: payload → typed document → AJV → errors by field name.
 *
 * Before anything walks the payload, it is inspected like a JSON body
 * (docs/schema-dialect.md "Limits on documents") plus a cap on list rows, which
 * form field names can otherwise set to billions (`rooms[4294967294]`). A field
 * with a hostile shape is removed from the payload itself, because Conform
 * echoes the payload back (`submission.reply()`) and walks it recursively; a
 * too long text is refused under its field before any pattern runs on it.
 * Errors of names the form does not render (unknown properties) are repeated
 * as form errors (""), so the user sees them.
 */
export function resolveDocument(
  payload: Record<string, unknown>,
  schema: JsonSchema,
  validate: ValidateFunction | null,
  messageLocale: Locale,
): { value?: Record<string, unknown>; error?: Record<string, string[]> } {
  if (!isObject(payload)) return { error: { "": ["The form could not be read"] } };
  const { [CONTENT_ID_FIELD]: _contentId, [BASE_VERSION_FIELD]: _base, ...fields } = payload;

  const refused: Record<string, string[]> = {};
  const add = (name: string, message: string) => {
    const list = (refused[name] ??= []);
    if (!list.includes(message)) list.push(message);
  };
  for (let guard = Object.keys(fields).length + 1; guard > 0; guard--) {
    const problem = inspectPayload(fields, { maxListLength: MAX_FORM_LIST_LENGTH });
    if (!problem) break;
    add(problem.field, problem.message);
    if (problem.status === 422) break;
    add("", problem.message);
    const top = String(nameToSegments(problem.field)[0] ?? problem.field);
    delete fields[top];
    delete payload[top];
  }
  if (Object.keys(refused).length) return { error: refused };

  const value = (coerceFormValue(fields, schema) ?? {}) as Record<string, unknown>;
  if (!validate || validate(value)) return { value };
  const error = mapValidationErrors(validate.errors, schema, messageLocale).byField;
  for (const [name, messages] of Object.entries(error)) {
    if (name && !isSchemaField(schema, name)) error[""] = [...(error[""] ?? []), ...messages];
  }
  return { error };
}
