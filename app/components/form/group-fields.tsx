import { getInputProps, useField } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { clearedValue } from "@core/form/kinds";
import type { JsonSchema } from "@core/schema/normalize";
import { useBucketForm, useFieldLock } from "./context";
import { ErrorLines } from "~/components/form-errors";
import { fieldLabel, FieldShell, type FieldProps } from "./field-shell";
import { LocaleTabs } from "./locale-tabs";
import { NestedField } from "./nested-field";

const propertiesOf = (schema: JsonSchema) => (schema.properties ?? {}) as Record<string, JsonSchema>;
const requiredOf = (schema: JsonSchema) => (Array.isArray(schema.required) ? (schema.required as string[]) : []);

/** An object's properties as fields; x-indent, x-collapsible and x-clearable ('Velden leegmaken'). */
export function ObjectField(props: FieldProps) {
  const { t } = useTranslation();
  const [meta, form] = useField<Record<string, unknown>>(props.name);
  const lock = useFieldLock();
  const { schema } = props;
  const required = requiredOf(schema);
  const children = Object.entries(propertiesOf(schema)).map(([key, child]) => (
    <NestedField key={key} name={`${props.name}.${key}`} schema={child} required={required.includes(key)} />
  ));
  const clear =
    schema["x-clearable"] && lock.showEditButtons ? (
      <button
        {...form.update.getButtonProps({ name: meta.name, value: clearedValue(schema) as Record<string, string> })}
        className="button small"
        disabled={lock.disabled}
      >
        {t("form.clearFields")}
      </button>
    ) : null;
  const className = schema["x-indent"] ? "object-field indent" : "object-field";
  if (schema["x-collapsible"]) {
    return (
      <details className={className} open data-field={props.name}>
        <summary>{fieldLabel(props)}</summary>
        {children}
        {clear}
        {meta.errors?.length ? (
          <p className="field-error" role="alert">
            <ErrorLines messages={meta.errors} />
          </p>
        ) : null}
      </details>
    );
  }
  return (
    <FieldShell {...props} as="fieldset" id={meta.id} errorId={meta.errorId} errors={meta.errors} aside={clear}>
      <div className={className}>{children}</div>
    </FieldShell>
  );
}

/** `translate: true`: one input per locale; with JavaScript, tabs that mark the locales with errors. */
export function TranslateObjectField(props: FieldProps) {
  const [meta] = useField<Record<string, unknown>>(props.name);
  const { locales, activeLocale, hydrated } = useBucketForm();
  const properties = propertiesOf(props.schema);
  const required = requiredOf(props.schema);
  const errorLocales = new Set(
    Object.entries(meta.allErrors)
      .filter(([, errors]) => errors.length)
      .map(([name]) => name.slice(props.name.length + 1).split(/[.[]/)[0] ?? ""),
  );
  return (
    <FieldShell {...props} as="fieldset" id={meta.id} errorId={meta.errorId} errors={meta.errors}>
      {hydrated ? <LocaleTabs withErrors={errorLocales} /> : null}
      {locales.map((locale) => (
        <div key={locale} hidden={hydrated && locale !== activeLocale} lang={locale}>
          <NestedField
            name={`${props.name}.${locale}`}
            schema={properties[locale] ?? { type: "string" }}
            required={required.includes(locale)}
            label={locale.toUpperCase()}
          />
        </div>
      ))}
    </FieldShell>
  );
}

/** Disableable string {value, disabled}, with the schema's enableButton / disableButton texts. */
export function DisableableField(props: FieldProps) {
  const [meta] = useField<{ value: string; disabled: boolean }>(props.name);
  const fields = meta.getFieldset();
  const lock = useFieldLock();
  const flag = lock.locked ? fields.disabled.initialValue : fields.disabled.value;
  const disabled = flag === "on" || flag === "true";
  const enableText = typeof props.schema.enableButton === "string" ? props.schema.enableButton : "Enable";
  const disableText = typeof props.schema.disableButton === "string" ? props.schema.disableButton : "Disable";
  return (
    <FieldShell {...props} id={fields.value.id} errorId={meta.errorId} errors={[...(meta.errors ?? []), ...(fields.value.errors ?? [])]}>
      <div className="disableable">
        <input
          {...getInputProps(fields.value, { type: "text" })}
          readOnly={disabled || lock.readOnly}
          disabled={lock.disabled}
          aria-disabled={disabled}
        />
        <label className="inline-check">
          <input {...getInputProps(fields.disabled, { type: "checkbox" })} {...lock.choice} />
          {disabled ? enableText : disableText}
        </label>
      </div>
    </FieldShell>
  );
}
