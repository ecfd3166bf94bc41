import { translate, translateMessage, type Message } from "@core/messages";
import type { ValidateFunction } from "ajv";
import { inspectPayload, MAX_FORM_LIST_LENGTH } from "@core/content/payload";
import { mapValidationErrors, type FieldErrors } from "@core/schema/errors";
import type { Locale } from "@core/locales";
import { PENDING_UPLOAD_FIELD } from "@core/media/pending";
import type { JsonSchema } from "@core/schema/normalize";
import { nameToSegments } from "@core/schema/path";
import { coerceFormValue } from "./kinds";
import { schemaAtName } from "@core/schema/walk";
import { isPlainObject } from "@core/plain-object";
import { withStoredValues, withUnreadableText } from "./value-messages";

/** Hidden form fields that carry the save's bookkeeping, not document data. */
export const CONTENT_ID_FIELD = "__contentId";
export const BASE_VERSION_FIELD = "__baseVersionId";
/** A merge conflict's choices (`__mergeChoice.<field name>`, core/content/merge.ts): not document fields. */
export const MERGE_CHOICE_FIELD = "__mergeChoice";

/** The message of a refused document that fails the bucket's validator (the JSON API's `error`). */
export const INVALID_CONTENT = { key: "content.invalid" } as const;

/** Whether a form field name (`rooms[0].title.nl`) is a field of the schema, so the form renders its errors. */
export function isSchemaField(schema: JsonSchema, name: string): boolean {
  return schemaAtName(schema, name) !== null;
}

/**
 * The bucket's validator over a typed document: errors by field name, or
 * null. With `only`, errors outside those top-level properties are dropped
 * (the partial form). The last step of every save: the form's resolver and
 * the JSON API both end here.
 */
export function schemaErrors(
  value: unknown,
  schema: JsonSchema,
  validate: ValidateFunction,
  messageLocale: Locale,
  only?: readonly string[],
): FieldErrors | null {
  if (validate(value)) return null;
  const errors = mapValidationErrors(validate.errors, schema, messageLocale, only);
  return Object.keys(errors.byField).length ? errors : null;
}

export type DocumentCheck =
  { ok: true; value: Record<string, unknown> } | { ok: false; status: 400 | 422; message: string; errors: FieldErrors };

/**
 * A document sent as JSON, checked like a form post: its shape first
 * (inspectPayload: prototype keys, nesting, too long texts; docs/schema-dialect.md
 * "Limits on documents"), then the bucket's validator. Hostile shapes are 400,
 * everything the user can correct 422.
 */
export function checkDocument(value: unknown, schema: JsonSchema, validate: ValidateFunction, messageLocale: Locale): DocumentCheck {
  if (!isPlainObject(value))
    return { ok: false, status: 400, message: translate(messageLocale, "api.contentNotObject"), errors: { byField: {}, locales: [] } };
  const problem = inspectPayload(value);
  if (problem) {
    const message = translateMessage(messageLocale, problem.message);
    return { ok: false, status: problem.status, message, errors: { byField: { [problem.field]: [message] }, locales: [] } };
  }
  const errors = schemaErrors(value, schema, validate, messageLocale);
  if (!errors) return { ok: true, value };
  withUnreadableText(errors.byField, value, schema, messageLocale);
  return { ok: false, status: 422, message: translateMessage(messageLocale, INVALID_CONTENT), errors };
}

/**
 * Conform's resolver for a bucket form, the same in the action, on the page
 * and in the bucket-form modal: payload → typed document → AJV → errors by
 * field name.
 *
 * Before anything walks the payload, it is inspected like a JSON body
 * (docs/schema-dialect.md "Limits on documents") plus a cap on list rows, which
 * form field names can otherwise set to billions (`rooms[4294967294]`). A field
 * with a hostile shape is removed from the payload itself, because Conform
 * echoes the payload back (`submission.reply()`) and walks it recursively; a
 * too long text is refused under its field before any pattern runs on it.
 * Errors of names the form does not render (unknown properties) are repeated
 * as form errors (""), so the user sees them. With `only` (the partial form),
 * the errors of other top-level properties are dropped.
 */
export function resolveDocument(
  payload: Record<string, unknown>,
  schema: JsonSchema,
  validate: ValidateFunction | null,
  messageLocale: Locale,
  only?: readonly string[],
): { value?: Record<string, unknown>; error?: Record<string, string[]> } {
  if (!isPlainObject(payload)) return { error: { "": [translate(messageLocale, "content.formUnreadable")] } };
  const {
    [CONTENT_ID_FIELD]: _contentId,
    [BASE_VERSION_FIELD]: _base,
    [PENDING_UPLOAD_FIELD]: _pending,
    [MERGE_CHOICE_FIELD]: _choices,
    ...submitted
  } = payload;
  let fields = submitted;

  // No prototype: a refused field may be named 'constructor'.
  const refused = Object.create(null) as Record<string, string[]>;
  const add = (name: string, message: string) => {
    const list = (refused[name] ??= []);
    if (!list.includes(message)) list.push(message);
  };
  for (let guard = Object.keys(fields).length + 1; guard > 0; guard--) {
    const problem = inspectPayload(fields, { maxListLength: MAX_FORM_LIST_LENGTH });
    if (!problem) break;
    const message = translateMessage(messageLocale, problem.message);
    add(problem.field, message);
    if (problem.status === 422) break;
    add("", message);
    const top = String(nameToSegments(problem.field)[0] ?? problem.field);
    const { [top]: _removed, ...rest } = fields;
    fields = rest;
    // Conform's own payload loses the field in place (it echoes the payload back): no copy would do.
    Reflect.deleteProperty(payload, top);
  }
  if (Object.keys(refused).length) return { error: refused };

  const value = (coerceFormValue(fields, schema) ?? {}) as Record<string, unknown>;
  const errors = validate ? schemaErrors(value, schema, validate, messageLocale, only) : null;
  if (!errors) return { value };
  return { error: withFormErrors(withUnreadableText(errors.byField, value, schema, messageLocale), schema) };
}

/** Errors of names the form does not render (unknown properties) repeated as form errors (""), so the user sees them. */
function withFormErrors(error: Record<string, string[]>, schema: JsonSchema): Record<string, string[]> {
  for (const [name, messages] of Object.entries(error)) {
    if (name && !isSchemaField(schema, name)) error[""] = [...(error[""] ?? []), ...messages];
  }
  return error;
}

/**
 * The errors of a stored document under the bucket's current schema, as the form shows them (null when it
 * validates). A schema change never changes stored documents, so the edit page shows these when it opens a
 * document that no longer fits, and the editor can fix them; a value the schema refuses as a whole is shown with
 * its message ("Stored value: …", core/form/value-messages.ts).
 */
export function storedDocumentErrors(
  data: Record<string, unknown>,
  schema: JsonSchema,
  validate: ValidateFunction | null,
  messageLocale: Locale,
): Record<string, string[]> | null {
  const errors = validate ? schemaErrors(data, schema, validate, messageLocale) : null;
  // validate.errors are still those of `data`: the stored values go under the fields that refuse them.
  return errors ? withFormErrors(withStoredValues(errors.byField, validate?.errors, data, schema, messageLocale), schema) : null;
}

/**
 * The resolver of a form post whose hostile entries were taken out
 * (core/form/hostile.ts): their messages as the form's errors, else
 * resolveDocument. Page, modal and server parse with it.
 */
export function documentResolver(options: {
  schema: JsonSchema;
  validate: ValidateFunction | null;
  messageLocale: Locale;
  hostile?: readonly Message[];
  only?: readonly string[];
}) {
  return (payload: Record<string, unknown>) =>
    options.hostile?.length
      ? { error: { "": options.hostile.map((message) => translateMessage(options.messageLocale, message)) } }
      : resolveDocument(payload, options.schema, options.validate, options.messageLocale, options.only);
}
