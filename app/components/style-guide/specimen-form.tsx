import { FormProvider, getFormProps, parse, useForm, type SubmissionResult } from "@conform-to/react";
import { useMemo, useState, type ReactNode } from "react";
import type { JsonSchema } from "@core/schema/normalize";
import { BucketFormContext } from "~/components/form/context";
import { SchemaField } from "~/components/form/schema-field";
import { ClipCardsContext } from "~/components/clip-cards/context";
import { FIXTURE_CLIP_CARDS, FIXTURE_LOCALES, FIXTURE_REFERENCE_OPTIONS } from "./field-fixtures";

const CLIP_CARDS = { data: FIXTURE_CLIP_CARDS, picker: null };

/**
 * A bucket form of samples, as an edit page sets it up: the form settings, Conform with the
 * sample values (or an action's reply) and a SchemaField per property. Nothing is saved: a
 * submit stays on the page.
 */
export function SpecimenForm(props: {
  id: string;
  schema: JsonSchema;
  defaultValue: Record<string, unknown>;
  lastResult?: SubmissionResult;
  hydrated: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  /** Fields rendered by the caller instead of one per property. */
  children?: ReactNode;
}) {
  const [activeLocale, setActiveLocale] = useState<string>(FIXTURE_LOCALES[0]);
  const [form] = useForm<Record<string, unknown>>({
    id: props.id,
    // Conform types a default value as form strings; a document of any shape is what it takes.
    defaultValue: props.defaultValue as Record<string, string>,
    lastResult: props.lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    // No validator in the browser here: what the user types is taken as it is, and the sample's messages clear.
    onValidate: ({ formData }) => parse(formData, { resolve: (value) => ({ value }) }),
    onSubmit: (event) => event.preventDefault(),
  });
  const settings = useMemo(
    () => ({
      locales: [...FIXTURE_LOCALES],
      activeLocale,
      setActiveLocale,
      hydrated: props.hydrated,
      referenceOptions: FIXTURE_REFERENCE_OPTIONS,
      canEditTextIds: true,
      disabled: props.disabled,
      readOnly: props.readOnly,
    }),
    [activeLocale, props.hydrated, props.disabled, props.readOnly],
  );
  const properties = Object.entries((props.schema.properties ?? {}) as Record<string, JsonSchema>);
  const required = Array.isArray(props.schema.required) ? (props.schema.required as string[]) : [];
  return (
    <BucketFormContext.Provider value={settings}>
      <ClipCardsContext.Provider value={CLIP_CARDS}>
        <FormProvider context={form.context}>
          <form {...getFormProps(form)} action="/style" className="bucket-form specimen-form">
            {props.children ??
              properties.map(([name, property]) => (
                <SchemaField key={name} name={name} schema={property} required={required.includes(name)} />
              ))}
          </form>
        </FormProvider>
      </ClipCardsContext.Provider>
    </BucketFormContext.Provider>
  );
}
