import type { ValidateFunction } from "ajv";
import { mapValidationErrors } from "../schema/errors";
import type { Locale } from "../locales";
import type { JsonSchema } from "../schema/normalize";
import { coerceFormValue } from "./coerce";

/** Hidden form fields that carry the save's bookkeeping, not document data. */
export const CONTENT_ID_FIELD = "__contentId";
export const BASE_VERSION_FIELD = "__baseVersionId";

/**
 * Conform's resolver for a bucket form, the same in the action and in the
 * browser: payload → typed document → AJV → errors by field name.
 */
export function resolveDocument(
  payload: Record<string, unknown>,
  schema: JsonSchema,
  validate: ValidateFunction | null,
  messageLocale: Locale,
): { value?: Record<string, unknown>; error?: Record<string, string[]> } {
  const { [CONTENT_ID_FIELD]: _contentId, [BASE_VERSION_FIELD]: _base, ...fields } = payload;
  const value = (coerceFormValue(fields, schema) ?? {}) as Record<string, unknown>;
  if (!validate || validate(value)) return { value };
  return { error: mapValidationErrors(validate.errors, schema, messageLocale).byField };
}
