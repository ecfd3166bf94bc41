import { FormProvider, getFormProps, parse, useForm, type DefaultValue, type SubmissionResult } from "@conform-to/react";
import type { ValidateFunction } from "ajv";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { createPortal } from "react-dom";
import type { Locale } from "@core/locales";
import type { JsonSchema } from "@core/schema/normalize";
import { removeHostileEntries } from "@core/form/hostile";
import { documentResolver, isSchemaField } from "@core/form/resolve";
import { ApiError, requestJson } from "~/lib/api-client";
import { loadBrowserValidator } from "~/lib/validator";
import { BucketFormContext } from "./context";
import { MediaFormContext, useMediaForm } from "./media/context";
import { DefaultSubmit } from "./default-submit";
import { NestedField } from "./nested-field";
import { ModalDialog } from "~/components/modal-dialog";

export interface BucketFormModalProps {
  bucket: { slug: string; collectionName: string; locales: string[]; schema: JsonSchema; validatorUrl: string | null };
  /** The document to edit (with contentId and _id), or undefined for a new one. */
  document?: Record<string, unknown>;
  /** Show only these properties (the partial form); their errors only. */
  properties?: string[];
  title: string;
  submitText?: string;
  cancelText?: string;
  messageLocale: Locale;
  canEditTextIds?: boolean;
  /** The message of a failed save (default: the sub-form's, spec §8). */
  failureText?: (status: number | undefined) => string;
  /** The saved document, or null when cancelled. */
  onResolve(result: Record<string, unknown> | null): void;
}

/**
 * POSTs a document to the JSON API (the server's save pipeline, as for the edit page) with the session cookie;
 * rejects with an ApiError: the server's message, its status and its answer ({error, errors by field}).
 */
export async function saveThroughApi(slug: string, collection: string, content: Record<string, unknown>): Promise<Record<string, unknown>> {
  const saved = await requestJson<Record<string, unknown> | null>(`/api/v1/buckets/${encodeURIComponent(slug)}/save`, {
    json: { content, collection },
  });
  return saved ?? {};
}

/** A refused save's errors by field for this form: a field it does not show has its messages above the fields. */
function shownErrors(errors: Record<string, unknown>, schema: JsonSchema): Record<string, string[]> {
  const shown: Record<string, string[]> = {};
  for (const [name, messages] of Object.entries(errors)) {
    if (!Array.isArray(messages)) continue;
    const target = name && isSchemaField(schema, name) ? name : "";
    shown[target] = [...(shown[target] ?? []), ...messages.map(String)];
  }
  return shown;
}

/**
 * The bucket-form modal (spec §2): the full form or a partial one; saving
 * resolves with the saved document and closes, cancelling resolves null, a
 * failure is logged ('Error submitting form') and the modal stays open with
 * a message.
 */
export function BucketFormModal(props: BucketFormModalProps) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const [validate, setValidate] = useState<ValidateFunction | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [activeLocale, setActiveLocale] = useState(props.bucket.locales[0] ?? "");
  const { schema } = props.bucket;

  useEffect(() => {
    dialog.current?.showModal();
    // Without its validator (not loaded yet, or failed) the form checks the rest and the server validates.
    if (props.bucket.validatorUrl)
      loadBrowserValidator(props.bucket.validatorUrl).then(
        (fn) => setValidate(() => fn),
        () => undefined,
      );
  }, [props.bucket.validatorUrl]);

  // The partial form reads only its listed properties: the rest of the document is kept as it was.
  const shownSchema = useMemo(() => {
    const only = props.properties;
    if (!only) return schema;
    const all = (schema.properties ?? {}) as Record<string, JsonSchema>;
    return { ...schema, properties: Object.fromEntries(Object.entries(all).filter(([name]) => only.includes(name))) };
  }, [schema, props.properties]);

  // The server's errors of a refused save, shown like the form's own: under the shown fields, else above them.
  const [serverResult, setServerResult] = useState<SubmissionResult | undefined>(undefined);

  const [form] = useForm<Record<string, unknown>>({
    // The document's shape is the bucket's, known only at run time; Conform's type would have it from the schema type.
    defaultValue: props.document as DefaultValue<Record<string, unknown>>,
    lastResult: serverResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    // The page's resolver (hostile entries, inspectPayload, coercion, the bucket's validator); the partial form
    // keeps only its properties' errors.
    onValidate: ({ formData }) => {
      const hostile = removeHostileEntries(formData);
      return parse(formData, {
        resolve: documentResolver({ schema: shownSchema, validate, messageLocale: props.messageLocale, hostile, only: props.properties }),
      });
    },
    onSubmit(event, { submission }) {
      event.preventDefault();
      if (submission?.status !== "success") return;
      setSaving(true);
      setFailure(null);
      // The shown properties come from the form (an emptied field is gone); the others, _id and contentId are kept.
      const shownNames = new Set(Object.keys(shownSchema.properties ?? {}));
      const kept = Object.fromEntries(Object.entries(props.document ?? {}).filter(([name]) => !shownNames.has(name)));
      const content = { ...kept, ...submission.value };
      void (async () => {
        try {
          const saved = await saveThroughApi(props.bucket.slug, props.bucket.collectionName, content);
          dialog.current?.close();
          props.onResolve(saved);
        } catch (error) {
          console.error("Error submitting form", error);
          const status = error instanceof ApiError ? error.status : undefined;
          setFailure(props.failureText ? props.failureText(status) : status === 409 ? t("subForm.conflict") : t("subForm.saveFailed"));
          const errors = error instanceof ApiError ? (error.body as { errors?: unknown } | null)?.errors : undefined;
          if (errors && typeof errors === "object")
            setServerResult(submission.reply({ fieldErrors: shownErrors(errors as Record<string, unknown>, shownSchema) }));
        } finally {
          setSaving(false);
        }
      })();
    },
  });

  const settings = useMemo(
    () => ({
      locales: props.bucket.locales,
      activeLocale,
      setActiveLocale,
      hydrated: true,
      referenceOptions: {},
      canEditTextIds: props.canEditTextIds ?? false,
    }),
    [props.bucket.locales, activeLocale, props.canEditTextIds],
  );
  // Media fields in this form upload to the modal's bucket, not the page's, crop for the modal's document and choose
  // from the library in a dialog (the modal cannot leave its page).
  const pageMedia = useMediaForm();
  const documentId = typeof props.document?.contentId === "string" ? props.document.contentId : null;
  const mediaSettings = useMemo(
    () => ({ ...pageMedia, bucketSlug: props.bucket.slug, library: { documentId, choose: "dialog" as const } }),
    [pageMedia, props.bucket.slug, documentId],
  );
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const shown = Object.entries(properties).filter(([name]) => !props.properties || props.properties.includes(name));
  const cancel = () => {
    dialog.current?.close();
    props.onResolve(null);
  };

  // React bubbles a portal's events to its React ancestors: the page's form must not see this form's submit.
  const formProps = getFormProps(form);
  const submit = (event: React.SubmitEvent<HTMLFormElement>) => {
    event.stopPropagation();
    formProps.onSubmit(event);
  };
  // A portal: opened from a field, the modal's own form must not sit inside the page's form (nested forms submit
  // the outer one).
  return createPortal(
    <ModalDialog ref={dialog} className="bucket-form-modal" labelledBy="bucket-form-modal-title" onCancel={cancel}>
      <h2 id="bucket-form-modal-title">{props.title}</h2>
      {failure ? (
        <p className="form-error" role="alert">
          {failure}
        </p>
      ) : null}
      <BucketFormContext.Provider value={settings}>
        <MediaFormContext.Provider value={mediaSettings}>
          <FormProvider context={form.context}>
            <form {...formProps} method="post" onSubmit={submit}>
              <DefaultSubmit />
              {form.errors?.length ? (
                <p className="form-error" role="alert">
                  {form.errors.join(" ")}
                </p>
              ) : null}
              {shown.map(([name, property]) => (
                <NestedField key={name} name={name} schema={property} required={required.includes(name)} />
              ))}
              <div className="modal-actions">
                <button type="button" className="button" onClick={cancel}>
                  {props.cancelText ?? t("form.cancel")}
                </button>
                <button type="submit" className="button primary" disabled={saving}>
                  {props.submitText ?? t("form.submit")}
                </button>
              </div>
            </form>
          </FormProvider>
        </MediaFormContext.Provider>
      </BucketFormContext.Provider>
    </ModalDialog>,
    document.body,
  );
}
