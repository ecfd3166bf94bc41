import { useField } from "@conform-to/react";
import { useContext, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { BASE_VERSION_FIELD, CONTENT_ID_FIELD } from "@core/form/resolve";
import { subFormFieldName, type InlineSubFormData } from "@core/form/subforms";
import type { JsonSchema } from "@core/schema/normalize";
import { BucketFormContext, useBucketForm } from "./context";
import { FieldShell, fieldLabel, type FieldProps } from "./field-shell";
import { NestedField } from "./nested-field";
import { ReferenceField } from "./reference-field";
import { InlineSubFormsContext } from "./inline-subforms";

/**
 * An inline sub-form (`renderer: "inline"` with `_ref`): the referenced document's form inside the parent form
 * (core/form/subforms.ts). Its fields post with the parent's under `__subforms.<field>.…`, with the document's
 * contentId and the version it was loaded with; the page validates them with the referenced bucket's validator
 * and the server saves the document and the parent in one transaction. Errors of the sub-form as a whole (a
 * conflict, a failed save, a failed load) show under it.
 */
export function InlineField(props: FieldProps) {
  const sub = useContext(InlineSubFormsContext)[props.name];
  if (!sub) return <ReferenceField {...props} />;
  if (sub.state === "ready") return <InlineSubForm {...props} sub={sub} />;
  return <UnavailableSubForm {...props} sub={sub} />;
}

function UnavailableSubForm(props: FieldProps & { sub: Exclude<InlineSubFormData, { state: "ready" }> }) {
  const { t } = useTranslation();
  const [meta] = useField<string>(props.name);
  if (props.sub.state === "unavailable") {
    const reason = t(`subForm.reasons.${props.sub.reason}`, { collection: props.sub.collection });
    return (
      <div className="inline-subform-unavailable">
        <ReferenceField {...props} />
        <p className="field-note">{t("subForm.unavailable", { reason })}</p>
      </div>
    );
  }
  // The load failed: the field keeps its value, the sub-form says so (spec §8).
  return (
    <FieldShell {...props} as="fieldset" id={meta.id} errorId={meta.errorId} errors={[t("subForm.fetchFailed"), ...(meta.errors ?? [])]}>
      <input type="hidden" name={meta.name} value={typeof meta.initialValue === "string" ? meta.initialValue : ""} />
    </FieldShell>
  );
}

function InlineSubForm(props: FieldProps & { sub: Extract<InlineSubFormData, { state: "ready" }> }) {
  const { t } = useTranslation();
  const { sub, name } = props;
  const settings = useBucketForm();
  const [meta] = useField<string>(name);
  const [whole] = useField<unknown>(subFormFieldName(name));
  const nested = useMemo(
    () => ({
      ...settings,
      locales: sub.locales,
      activeLocale: sub.locales.includes(settings.activeLocale) ? settings.activeLocale : (sub.locales[0] ?? ""),
    }),
    [settings, sub.locales],
  );
  const properties = (sub.schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(sub.schema.required) ? (sub.schema.required as string[]) : [];
  const errors = [...(whole.errors ?? []), ...(meta.errors ?? [])];
  const { document } = sub;
  return (
    <FieldShell {...props} label={fieldLabel(props)} as="fieldset" id={meta.id} errorId={meta.errorId} errors={errors}>
      <div className="inline-subform" data-subform={name}>
        <input type="hidden" name={name} value={document?.contentId ?? ""} />
        <input type="hidden" name={subFormFieldName(name, CONTENT_ID_FIELD)} value={document?.contentId ?? ""} />
        <input type="hidden" name={subFormFieldName(name, BASE_VERSION_FIELD)} value={document?.versionId ?? ""} />
        <p className="field-note">
          {document ? (
            <>
              {t("subForm.editsDocument", { title: document.title })}{" "}
              <a href={`/b/${sub.slug}/${document.contentId}/latest`} target="_blank" rel="noreferrer">
                {t("subForm.openDocument")}
              </a>
            </>
          ) : sub.copyOf === undefined ? (
            t("subForm.newDocument")
          ) : (
            t("subForm.copiesDocument", { title: sub.copyOf })
          )}
        </p>
        <InlineSubFormsContext.Provider value={{}}>
          <BucketFormContext.Provider value={nested}>
            {Object.entries(properties).map(([property, schema]) => (
              <NestedField key={property} name={subFormFieldName(name, property)} schema={schema} required={required.includes(property)} />
            ))}
          </BucketFormContext.Provider>
        </InlineSubFormsContext.Provider>
      </div>
    </FieldShell>
  );
}
