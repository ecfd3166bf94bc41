import { FormProvider, getFormProps, parse, useForm, type DefaultValue } from "@conform-to/react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { initialValue } from "@core/form/kinds";
import { normalizeSchema, type JsonSchema } from "@core/schema/normalize";
import { BucketFormContext } from "~/components/form/context";
import { MediaFormContext } from "~/components/form/media/context";
import { SchemaField } from "~/components/form/schema-field";

const NO_MEDIA = { bucketSlug: null, contents: {}, videoProcessing: true };

/**
 * The form a schema produces, rendered by the edit page's engine (normalisation, SchemaField and the field
 * registry) with the schema's initial values. It is a sample: nothing is saved, a submit stays on the page.
 */
export function SchemaPreview({ schema: raw, locales, hydrated }: { schema: JsonSchema; locales: string[]; hydrated: boolean }) {
  const { t } = useTranslation();
  const { schema, problems } = useMemo(() => normalizeSchema(raw, locales), [raw, locales]);
  const [activeLocale, setActiveLocale] = useState(locales[0] ?? "");
  const shownLocale = locales.includes(activeLocale) ? activeLocale : (locales[0] ?? "");
  const [form] = useForm<Record<string, unknown>>({
    id: "schema-preview",
    defaultValue: initialValue(schema) as DefaultValue<Record<string, unknown>>,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parse(formData, { resolve: (value) => ({ value }) }),
    onSubmit: (event) => event.preventDefault(),
  });
  const settings = useMemo(
    () => ({ locales, activeLocale: shownLocale, setActiveLocale, hydrated, referenceOptions: {}, canEditTextIds: true }),
    [locales, shownLocale, hydrated],
  );
  if (problems.length) return <p className="form-error">{t("adminBuckets.preview.unavailable")}</p>;
  const properties = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return (
    <BucketFormContext.Provider value={settings}>
      <MediaFormContext.Provider value={NO_MEDIA}>
        <FormProvider context={form.context}>
          <form {...getFormProps(form)} className="bucket-form schema-preview-form" aria-label={t("adminBuckets.preview.title")}>
            {properties.length === 0 ? <p className="empty">{t("adminBuckets.preview.empty")}</p> : null}
            {properties.map(([name, property]) => (
              <SchemaField key={name} name={name} schema={property} required={required.includes(name)} />
            ))}
          </form>
        </FormProvider>
      </MediaFormContext.Provider>
    </BucketFormContext.Provider>
  );
}
