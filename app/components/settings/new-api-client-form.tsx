import { getCollectionProps, getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import { apiClientSchema } from "@core/account-schemas";
import { FieldError, FormError } from "~/components/form-errors";
import { OriginsField } from "~/components/settings/allowed-origins";

/*
 * The form that creates an API client on /settings/new-client: its name, the buckets it reads and writes, its expiry,
 * its allowed origins and its preview.
 */

/** A bucket a client may be given: its slug, its name in the interface language, and whether it is private. */
interface ScopeBucket {
  slug: string;
  name: string;
  private: boolean;
}

export function NewApiClientForm({
  buckets,
  today,
  lastResult,
  unknown,
}: {
  buckets: readonly ScopeBucket[];
  /** The earliest expiry date (YYYY-MM-DD). */
  today: string;
  /** The answer to this form's last post, if it was refused. */
  lastResult: SubmissionResult | undefined;
  /** A bucket slug the post named that does not exist ("" for none): its error's parameter. */
  unknown: string;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "new-client",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: apiClientSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const slugs = buckets.map((bucket) => bucket.slug);
  const readBoxes = getCollectionProps(fields.read, { type: "checkbox", options: slugs });
  const writeBoxes = getCollectionProps(fields.write, { type: "checkbox", options: slugs });
  return (
    <Form method="post" className="account-form" {...getFormProps(form)}>
      <FormError errors={form.errors} />
      <input type="hidden" name="intent" value="create" />
      <label htmlFor={fields.name.id}>{t("adminClients.name")}</label>
      <input
        {...getInputProps(fields.name, { type: "text" })}
        key={fields.name.key}
        autoComplete="off"
        aria-describedby={`${fields.name.descriptionId} ${fields.name.errorId}`}
      />
      <p id={fields.name.descriptionId} className="field-hint">
        {t("adminClients.nameHint")}
      </p>
      <FieldError field={fields.name} />

      <fieldset className="account-fieldset">
        <legend>{t("adminClients.buckets")}</legend>
        {buckets.length === 0 ? (
          <p className="empty">{t("adminClients.noBuckets")}</p>
        ) : (
          <table className="scope-table">
            <thead>
              <tr>
                <th scope="col">{t("adminClients.bucket")}</th>
                <th scope="col">{t("adminClients.read")}</th>
                <th scope="col">{t("adminClients.write")}</th>
              </tr>
            </thead>
            <tbody>
              {buckets.map((bucket, index) => {
                const readBox = readBoxes[index];
                const writeBox = writeBoxes[index];
                if (!readBox || !writeBox) return null;
                const { key: readKey, ...read } = readBox;
                const { key: writeKey, ...write } = writeBox;
                return (
                  <tr key={bucket.slug}>
                    <th scope="row">
                      <span className="scope-name">{bucket.name}</span> <code className="muted">{bucket.slug}</code>
                      {bucket.private ? <span className="muted"> ({t("adminClients.privateBucket")})</span> : null}
                    </th>
                    <td>
                      <input key={readKey} {...read} aria-label={`${t("adminClients.read")}: ${bucket.name}`} />
                    </td>
                    <td>
                      <input key={writeKey} {...write} aria-label={`${t("adminClients.write")}: ${bucket.name}`} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
        <p className="field-hint">{t("adminClients.bucketsHint")}</p>
        <FieldError field={fields.read} params={{ slug: unknown }} />
      </fieldset>

      <label htmlFor={fields.expiresOn.id}>{t("adminClients.expiresOn")}</label>
      <input
        {...getInputProps(fields.expiresOn, { type: "date" })}
        key={fields.expiresOn.key}
        min={today}
        aria-describedby={`${fields.expiresOn.descriptionId} ${fields.expiresOn.errorId}`}
      />
      <p id={fields.expiresOn.descriptionId} className="field-hint">
        {t("adminClients.expiresHint")}
      </p>
      <FieldError field={fields.expiresOn} />

      <OriginsField field={fields.origins} rows={2} />

      <label className="inline-check client-preview-check">
        <input
          {...getInputProps(fields.preview, { type: "checkbox" })}
          key={fields.preview.key}
          aria-describedby={fields.preview.descriptionId}
        />{" "}
        {t("delivery.clients.preview")}
      </label>
      <p id={fields.preview.descriptionId} className="field-hint">
        {t("delivery.clients.previewHint")}
      </p>

      <button type="submit" className="button primary" disabled={navigation.state === "submitting"}>
        {t("adminClients.submit")}
      </button>
    </Form>
  );
}
