import {
  getCollectionProps,
  getFormProps,
  getInputProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import { apiClientSchema } from "@core/account-schemas";
import { clientOriginsSchema } from "@core/delivery/origins";
import { FieldError, FormError } from "~/components/form-errors";
import { formatWhen, When } from "~/components/when";
import { CopyField } from "~/components/share/created-link";
import type { Route } from "./+types/new-client";
import { newClientAction, newClientLoader } from "./new-client.server";
import "~/styles/delivery.css";
import { pageTitle } from "~/lib/page-title";

/*
 * /settings/new-client: create an API client for an exhibit app (the token is shown once, in the answer to the
 * POST: never in a URL), the list of clients with their last use, their allowed origins (the delivery API's
 * CORS, editable), and revoke.
 */

export const loader = (args: Route.LoaderArgs) => newClientLoader(args);
export const action = (args: Route.ActionArgs) => newClientAction(args);

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

export default function NewClient({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const navigation = useNavigation();
  const createResult = actionData?.intent === "create" ? actionData : undefined;
  const created = createResult?.created;
  const [form, fields] = useForm({
    id: "new-client",
    lastResult: createResult?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: apiClientSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const slugs = loaderData.buckets.map((bucket) => bucket.slug);
  const readBoxes = getCollectionProps(fields.read, { type: "checkbox", options: slugs });
  const writeBoxes = getCollectionProps(fields.write, { type: "checkbox", options: slugs });
  const bucketName = (slug: string) => loaderData.buckets.find((bucket) => bucket.slug === slug)?.name ?? slug;
  const names = (list: string[]) => list.map(bucketName).join(", ");
  const unknown = createResult?.unknown ?? "";
  return (
    <section className="account-page">
      <h1>{t("adminClients.title")}</h1>
      <p className="account-intro">{t("adminClients.intro")}</p>

      {created ? (
        <div className="client-token notice-success" role="status">
          <h2>{t("adminClients.created.title", { name: created.name })}</h2>
          <p>{t("adminClients.created.once")}</p>
          <dl className="client-token-parts">
            <dt>{t("adminClients.created.clientId")}</dt>
            <dd>
              <code>{created.clientId}</code>
            </dd>
            <dt>{t("adminClients.created.token")}</dt>
            <dd>
              <CopyField
                value={created.token}
                label={t("adminClients.created.token")}
                copyLabel={t("adminClients.created.copyToken")}
                marker="client-token"
              />
            </dd>
          </dl>
          <p>{t("adminClients.created.usage")}</p>
          <pre className="client-token-header">
            <code>{`Authorization: Bearer ${created.token}`}</code>
          </pre>
        </div>
      ) : null}
      {loaderData.revoked ? (
        <p className="notice-success" role="status">
          {t("adminClients.revoked", { name: loaderData.revoked })}
        </p>
      ) : null}
      {loaderData.originsSaved ? (
        <p className="notice-success" role="status">
          {t("delivery.clients.originsSaved", { name: loaderData.originsSaved })}
        </p>
      ) : null}
      {loaderData.previewSaved ? (
        <p className="notice-success" role="status">
          {t(loaderData.previewSaved.preview ? "delivery.clients.previewOnSaved" : "delivery.clients.previewOffSaved", {
            name: loaderData.previewSaved.name,
          })}
        </p>
      ) : null}
      {actionData?.intent === "revoke" ? (
        <div className="form-error" role="alert">
          <p>{t("adminClients.errors.alreadyRevoked")}</p>
        </div>
      ) : null}

      <h2>{t("adminClients.createTitle")}</h2>
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
          {loaderData.buckets.length === 0 ? (
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
                {loaderData.buckets.map((bucket, index) => {
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
          min={loaderData.today}
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

      <h2>{t("adminClients.listTitle")}</h2>
      {loaderData.clients.length === 0 ? (
        <p className="empty">{t("adminClients.empty")}</p>
      ) : (
        <ul className="client-list">
          {loaderData.clients.map((client) => (
            <li key={client.id} id={`client-${client.id}`} className="client-card" data-client={client.id} data-status={client.status}>
              <div className="client-head">
                <span className="client-name">{client.name}</span>
                <span className={`client-status status-${client.status}`}>
                  {t(`adminClients.status.${client.status}`, { date: client.date ? formatWhen(i18n.language, client.date, true) : "" })}
                </span>
              </div>
              <code className="client-id muted">{client.id}</code>
              <p className="client-access">
                {client.readBuckets.length ? <span>{t("adminClients.reads", { buckets: names(client.readBuckets) })}</span> : null}
                {client.writeBuckets.length ? <span>{t("adminClients.writes", { buckets: names(client.writeBuckets) })}</span> : null}
                {client.allowedOrigins.length ? (
                  <span>{t("delivery.clients.originsList", { origins: client.allowedOrigins.join(", ") })}</span>
                ) : null}
              </p>
              <p className="muted client-meta">
                <span>
                  {t("adminClients.columns.lastUsed")}: {client.lastUsedAt ? <When iso={client.lastUsedAt} /> : t("adminClients.neverUsed")}
                </span>
                <span suppressHydrationWarning>
                  {client.createdByName
                    ? t("adminClients.createdOn", { date: formatWhen(i18n.language, client.createdAt), name: client.createdByName })
                    : t("adminClients.createdOnAnonymous", { date: formatWhen(i18n.language, client.createdAt) })}
                </span>
              </p>
              {client.status === "revoked" || client.status === "expired" ? null : (
                <ClientOrigins
                  clientId={client.id}
                  origins={client.allowedOrigins}
                  result={actionData?.intent === "origins" && actionData.clientId === client.id ? actionData.result : undefined}
                />
              )}
              {client.status === "revoked" || client.status === "expired" ? null : (
                <ClientPreview clientId={client.id} name={client.name} preview={client.preview} />
              )}
              {client.status === "revoked" || client.status === "expired" ? null : (
                <details className="client-revoke">
                  <summary>{t("adminClients.revoke")}</summary>
                  <Form method="post">
                    <input type="hidden" name="intent" value="revoke" />
                    <input type="hidden" name="clientId" value={client.id} />
                    <p className="muted">{t("adminClients.revokeWarning")}</p>
                    <button type="submit" className="button danger small">
                      {t("adminClients.revokeConfirm", { name: client.name })}
                    </button>
                  </Form>
                </details>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A client's allowed origins (the delivery API's CORS): a form of its own, open when its post was refused. */
function ClientOrigins({ clientId, origins, result }: { clientId: string; origins: string[]; result?: SubmissionResult }) {
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

/**
 * A client's preview (version=newest and release= in the delivery API): said on its card, and turned on or off with
 * one button, a plain form post.
 */
function ClientPreview({ clientId, name, preview }: { clientId: string; name: string; preview: boolean }) {
  const { t } = useTranslation();
  return (
    <Form method="post" className="client-preview" data-client-preview={preview ? "on" : "off"}>
      <input type="hidden" name="intent" value="preview" />
      <input type="hidden" name="clientId" value={clientId} />
      <input type="hidden" name="preview" value={preview ? "off" : "on"} />
      <span className="muted">{t(preview ? "delivery.clients.previewIsOn" : "delivery.clients.previewIsOff")}</span>{" "}
      <button
        type="submit"
        className="button small"
        aria-label={t(preview ? "delivery.clients.previewTurnOffLabel" : "delivery.clients.previewTurnOnLabel", { name })}
      >
        {t(preview ? "delivery.clients.previewTurnOff" : "delivery.clients.previewTurnOn")}
      </button>
    </Form>
  );
}

/** The allowed origins, one a line, with their hint and errors: in the new client's form and in each client's own. */
function OriginsField({ field, rows }: { field: FieldMetadata<string | undefined>; rows: number }) {
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
