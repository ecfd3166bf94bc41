import { getFormProps, getTextareaProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { clientOriginsSchema } from "@core/delivery/origins";
import { FieldError } from "~/components/form-errors";

/*
 * An API client's allowed origins (the delivery API's CORS) on /settings/new-client: the field, one origin a line, and
 * each client's own form that changes them.
 */

/** A client's allowed origins (the delivery API's CORS): a form of its own, open when its post was refused. */
export function ClientOrigins({ clientId, origins, result }: { clientId: string; origins: string[]; result?: SubmissionResult }) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    id: `client-origins-${clientId}`,
    lastResult: result,
    defaultValue: { origins: origins.join("\n") },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: clientOriginsSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <details className="client-origins" open={result !== undefined}>
      <summary>{t("delivery.clients.editOrigins")}</summary>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="origins" />
        <input type="hidden" name="clientId" value={clientId} />
        <OriginsField field={fields.origins} rows={Math.max(2, origins.length + 1)} />
        <button type="submit" className="button small">
          {t("delivery.clients.saveOrigins")}
        </button>
      </Form>
    </details>
  );
}

/** The allowed origins, one a line, with their hint and errors: in the new client's form and in each client's own. */
export function OriginsField({ field, rows }: { field: FieldMetadata<string | undefined>; rows: number }) {
  const { t } = useTranslation();
  return (
    <>
      <label htmlFor={field.id}>{t("delivery.clients.origins")}</label>
      <textarea
        {...getTextareaProps(field)}
        key={field.key}
        rows={rows}
        className="client-origins-input"
        spellCheck={false}
        autoComplete="off"
        aria-describedby={`${field.descriptionId} ${field.errorId}`}
      />
      <p id={field.descriptionId} className="field-hint">
        {t("delivery.clients.originsHint")}
      </p>
      <FieldError field={field} />
    </>
  );
}
