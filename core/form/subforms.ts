import type { ValidateFunction } from "ajv";
import type { Locale } from "@core/locales";
import { translateMessage, type Message } from "@core/messages";
import type { JsonSchema } from "@core/schema/normalize";
import { isPlainObject } from "@core/plain-object";
import { fieldKind, SUBFORM_FIELD } from "./field-kind";
import { coerceFormValue, isUntouched } from "./kinds";
import { inspectPayload, MAX_FORM_LIST_LENGTH } from "@core/content/payload";
import { BASE_VERSION_FIELD, CONTENT_ID_FIELD, resolveDocument } from "./resolve";
import { documentRuleFindings } from "@core/content/document-rules";
import type { ScreenName } from "@core/content/screens";
import type { ScreenRules } from "@core/content/screen-table";

/*
 * Inline sub-forms (`renderer: "inline"` with `_ref`): the referenced document's fields are posted with the parent
 * form under a reserved name, `__subforms.<field>.<its own field names>`, with its own contentId and base version
 * (`__subforms.<field>.__contentId`, `…__baseVersionId`). One resolver validates the parent with its bucket's
 * validator and each sub-form with the referenced bucket's, in the browser and in the server's pipeline alike; its
 * errors sit under the sub-form's own field names, so they show under the sub-form's fields.
 */

export { SUBFORM_FIELD };

/**
 * The popup field's no-JavaScript buttons (server/content/drafts.ts), their value the field's name: edit the chosen
 * document on its own page (a new one when none is chosen), or create a new one there whatever is chosen.
 */
export const OPEN_SUBFORM_FIELD = "__openSubForm";
export const OPEN_NEW_SUBFORM_FIELD = "__openNewSubForm";
/** The hidden field that carries a draft's return token through the referenced document's own page. */
export const RETURN_FIELD = "__return";

/** The form field name of a sub-form's field (`__subforms.room.title`), or of the sub-form itself without `name`. */
export const subFormFieldName = (field: string, name?: string) => `${SUBFORM_FIELD}.${field}${name ? `.${name}` : ""}`;

/** The top-level properties of a schema rendered as inline sub-forms, with the collection each refers to. */
export function inlineFields(schema: JsonSchema): Array<{ field: string; collection: string }> {
  const properties = isPlainObject(schema.properties) ? (schema.properties as Record<string, JsonSchema>) : {};
  return Object.entries(properties).flatMap(([field, property]) =>
    isPlainObject(property) && fieldKind(property) === "inline" && typeof property._ref === "string"
      ? [{ field, collection: property._ref }]
      : [],
  );
}

/** What a sub-form needs to be validated: the referenced bucket's schema and its compiled validator. */
export interface SubFormCheck {
  schema: JsonSchema;
  validate: ValidateFunction | null;
}

/** What the edit page renders for an inline sub-form. */
export type InlineSubFormData =
  | {
      state: "ready";
      slug: string;
      collection: string;
      locales: string[];
      schema: JsonSchema;
      validatorUrl: string | null;
      /** The referenced document (null: a new one is created on save). */
      document: { contentId: string; versionId: string; title: string } | null;
      /** A duplicate's sub-form: the title of the original's sub-document whose copy the save creates. */
      copyOf?: string;
    }
  | { state: "unavailable"; collection: string; reason: "bucket" | "media" | "nested" }
  | { state: "failed"; collection: string };

/** A valid sub-form's document: new (no contentId) or a new version of the one it was loaded from. */
export interface SubDocument {
  field: string;
  contentId?: string;
  baseVersionId?: string;
  data: Record<string, unknown>;
}

/** Stand-in for a new sub-document's contentId while the parent is validated (the save puts the real one there). */
export const NEW_SUBDOCUMENT = "00000000-0000-4000-8000-000000000000";

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

/** A new sub-form nobody filled in: its fields hold their initial values (a hostile shape is never untouched). */
function untouched(sub: Record<string, unknown>, schema: JsonSchema): boolean {
  const { [CONTENT_ID_FIELD]: _contentId, [BASE_VERSION_FIELD]: _base, ...fields } = sub;
  if (inspectPayload(fields, { maxListLength: MAX_FORM_LIST_LENGTH })) return false;
  return isUntouched(coerceFormValue(fields, schema) ?? {}, schema);
}

/**
 * Conform's resolver of a form with inline sub-forms: the parent's payload without the sub-forms goes through
 * resolveDocument with the parent's schema; each posted sub-form's through resolveDocument with its bucket's. A
 * new sub-form left at its initial value creates nothing (the parent's field stays as posted); a posted sub-form
 * fills the parent's field with its document's contentId (a stand-in for a new one), so a required reference is
 * met by the sub-form. The value holds the parent's document and, under SUBFORM_FIELD, the sub-documents
 * (takeSubDocuments splits them).
 */
export function subFormResolver(options: {
  schema: JsonSchema;
  validate: ValidateFunction | null;
  messageLocale: Locale;
  subForms: Readonly<Record<string, SubFormCheck>>;
  hostile?: readonly Message[];
  /** The bucket's screen: its rules (core/content/document-rules.ts) run with the schema's. */
  screen?: ScreenName;
  /** The specialised screens' rules, which the page is handed (app/lib/screen-table.tsx). */
  screens: ScreenRules;
}) {
  return (payload: Record<string, unknown>): { value?: Record<string, unknown>; error?: Record<string, string[]> } => {
    if (options.hostile?.length)
      return { error: { "": options.hostile.map((message) => translateMessage(options.messageLocale, message)) } };
    if (!isPlainObject(payload)) return resolveDocument(payload, options.schema, options.validate, options.messageLocale);
    const { [SUBFORM_FIELD]: posted, ...parentPayload } = payload;
    // Nothing under the reserved name but the sub-forms this form has: anything else (which no check would walk)
    // leaves Conform's payload before it is echoed back.
    if (posted !== undefined && !isPlainObject(posted)) Reflect.deleteProperty(payload, SUBFORM_FIELD);
    if (isPlainObject(posted))
      for (const key of Object.keys(posted)) if (!Object.hasOwn(options.subForms, key)) Reflect.deleteProperty(posted, key);
    const errors: Record<string, string[]> = {};
    const documents: SubDocument[] = [];
    for (const [field, check] of Object.entries(options.subForms)) {
      const sub = isPlainObject(posted) ? posted[field] : undefined;
      if (!isPlainObject(sub)) continue;
      const contentId = text(sub[CONTENT_ID_FIELD]);
      if (!contentId && untouched(sub, check.schema)) continue;
      // Conform's own payload object: a hostile field is removed in place, as resolveDocument does for the parent.
      const resolved = resolveDocument(sub, check.schema, check.validate, options.messageLocale);
      if (resolved.error) {
        for (const [name, messages] of Object.entries(resolved.error)) errors[subFormFieldName(field, name)] = messages;
        parentPayload[field] = contentId ?? NEW_SUBDOCUMENT;
        continue;
      }
      const data = resolved.value ?? {};
      parentPayload[field] = contentId ?? NEW_SUBDOCUMENT;
      documents.push({ field, contentId, baseVersionId: text(sub[BASE_VERSION_FIELD]), data });
    }
    const parent = resolveDocument(parentPayload, options.schema, options.validate, options.messageLocale);
    // A hostile field resolveDocument took out of the parent's copy leaves Conform's payload too (it is echoed back).
    for (const key of Object.keys(payload)) if (key !== SUBFORM_FIELD && !(key in parentPayload)) Reflect.deleteProperty(payload, key);
    Object.assign(errors, parent.error ?? {});
    const data = parent.value ?? parentPayload;
    for (const { field, message } of documentRuleFindings(
      { screen: options.screen, schema: options.schema, data },
      "inBrowser",
      options.screens,
    )) {
      errors[field] = [...(errors[field] ?? []), translateMessage(options.messageLocale, message)];
    }
    if (Object.keys(errors).length) return { error: errors };
    return { value: { ...parent.value, [SUBFORM_FIELD]: documents } };
  };
}

/** A resolved value split into the parent's document and its sub-documents. */
export function takeSubDocuments(value: Record<string, unknown>): { data: Record<string, unknown>; subDocuments: SubDocument[] } {
  const { [SUBFORM_FIELD]: documents, ...data } = value;
  return { data, subDocuments: Array.isArray(documents) ? (documents as SubDocument[]) : [] };
}
