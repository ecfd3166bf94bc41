import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
import { IntentForm } from "~/components/intent-form";
import { shownDeliveryStatus, webhookEditSchema } from "@core/webhook-forms";
import { ConfirmDeleteDialog, DeleteOpener } from "~/components/confirm-dialog";
import { FormError } from "~/components/form-errors";
import { Pagination } from "~/components/list-tools";
import { eventKey, WebhookFields } from "~/components/settings/webhook-fields";
import { formatWhen, When } from "~/components/when";
import "~/styles/webhooks.css";
import type { Route } from "./+types/webhook";
import { webhookAction, webhookLoader } from "./webhook.server";
import { pageTitle } from "~/lib/page-title";
import { CopyField } from "~/components/share/created-link";

/*
 * /settings/webhooks/{id}: change a webhook (a generated secret is shown once, in the answer to the POST), its
 * delivery log with "Send again", and delete.
 */

export const loader = (args: Route.LoaderArgs) => webhookLoader(args);
export const action = (args: Route.ActionArgs) => webhookAction(args);

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

const shortId = (id: string) => id.slice(0, 8);

export default function WebhookEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const navigation = useNavigation();
  const { webhook, deliveries, page } = loaderData;
  const here = `/settings/webhooks/${webhook.id}`;
  const [form, fields] = useForm({
    id: `webhook-${webhook.id}`,
    lastResult: actionData?.result,
    defaultValue: {
      url: webhook.url,
      events: webhook.events,
      scope: webhook.allBuckets ? "all" : "some",
      buckets: webhook.bucketSlugs,
      secretMode: "keep",
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: webhookEditSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const busy = navigation.state === "submitting";
  return (
    <section className="webhooks-page">
      <p className="eyebrow">
        <Link to="/settings/webhooks">{t("webhooks.back")}</Link>
      </p>
      <h1>{t("webhooks.editTitle", { host: webhook.host })}</h1>
      <p className="webhook-url">
        <code>{webhook.url}</code>
      </p>
      <p className="muted" suppressHydrationWarning>
        {webhook.createdByName
          ? t("webhooks.createdBy", { date: formatWhen(i18n.language, webhook.createdAt), name: webhook.createdByName })
          : t("webhooks.createdOn", { date: formatWhen(i18n.language, webhook.createdAt) })}
      </p>
      {actionData?.secret ? (
        <div className="client-token notice-success" role="status">
          <p>{t("webhooks.secretReplaced")}</p>
          <CopyField
            value={actionData.secret}
            label={t("webhooks.created.secretTitle")}
            copyLabel={t("webhooks.copySecret")}
            marker="webhook-secret"
          />
        </div>
      ) : null}
      {loaderData.notice && !actionData ? (
        <p className="notice-success" role="status">
          {t(loaderData.notice)}
        </p>
      ) : null}

      <Form method="post" action={here} className="account-form webhook-form" {...getFormProps(form)}>
        <FormError errors={form.errors} />
        <WebhookFields fields={fields} buckets={loaderData.buckets} mode="edit" params={actionData?.params ?? undefined} />
        <button type="submit" name="intent" value="save" className="button primary" disabled={busy}>
          {t("webhooks.save")}
        </button>
      </Form>

      <h2 id="deliveries">{t("webhooks.log.title")}</h2>
      <p className="muted">{t("webhooks.log.intro")}</p>
      {deliveries.length === 0 ? (
        <p className="empty">{page > 1 ? t("settings.activity.noMore") : t("webhooks.log.empty")}</p>
      ) : (
        <div className="table-scroll">
          <table className="content-table delivery-log">
            <thead>
              <tr>
                <th scope="col">{t("webhooks.log.when")}</th>
                <th scope="col">{t("webhooks.log.document")}</th>
                <th scope="col">{t("webhooks.log.status")}</th>
                <th scope="col">{t("webhooks.log.attempts")}</th>
                <th scope="col">{t("webhooks.log.response")}</th>
                <th scope="col">{t("webhooks.log.next")}</th>
                <th scope="col">{t("webhooks.log.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => {
                const shown = shownDeliveryStatus(delivery.status, delivery.attempts);
                return (
                  <tr key={delivery.id} data-delivery={delivery.id} data-status={delivery.status}>
                    <td>
                      <When iso={delivery.occurredAt} />
                      <br />
                      <span className="muted">{t(`webhooks.event.${eventKey(delivery.event)}`)}</span>
                      {delivery.redelivery ? <span className="muted"> ({t("webhooks.log.redeliveryOf")})</span> : null}
                    </td>
                    <td>
                      <code>{delivery.bucketSlug}</code>
                      <br />
                      <code className="muted" title={delivery.contentId}>
                        {shortId(delivery.contentId)}
                      </code>
                    </td>
                    <td>
                      <span className={`delivery-status status-${shown}`}>{t(`webhooks.status.${shown}`)}</span>
                    </td>
                    <td className="numeric">{delivery.attempts}</td>
                    <td className="delivery-answer">
                      {delivery.lastError ? (
                        <span>{t(delivery.lastError.key, delivery.lastError.params)}</span>
                      ) : delivery.lastStatus !== null ? (
                        <span>{delivery.lastStatus}</span>
                      ) : (
                        <span className="muted">{delivery.attempts > 0 ? t("webhooks.log.noAnswer") : "—"}</span>
                      )}
                      {delivery.lastResponse ? (
                        <details>
                          <summary>{t("webhooks.log.responseExcerpt")}</summary>
                          <pre>{delivery.lastResponse}</pre>
                        </details>
                      ) : null}
                    </td>
                    <td>
                      {delivery.nextAttemptAt ? (
                        <When iso={delivery.nextAttemptAt} />
                      ) : delivery.status === "delivering" ? (
                        t("webhooks.log.sending")
                      ) : (
                        "—"
                      )}
                    </td>
                    <td>
                      <IntentForm
                        intent="redeliver"
                        action={here}
                        fields={{ deliveryId: delivery.id }}
                        className="button small"
                        disabled={busy}
                      >
                        {t("webhooks.log.resend")}
                        <span className="visually-hidden"> {shortId(delivery.id)}</span>
                      </IntentForm>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pagination
        label={t("webhooks.log.pages")}
        position={t("settings.page", { page })}
        previous={page > 1 ? { to: `?page=${page - 1}#deliveries`, text: t("settings.previous") } : null}
        next={loaderData.hasNext ? { to: `?page=${page + 1}#deliveries`, text: t("settings.next") } : null}
      />

      <section className="people-danger" aria-labelledby="webhook-delete">
        <h2 id="webhook-delete">{t("webhooks.delete")}</h2>
        <DeleteOpener hint={t("webhooks.deleteHint")} text={t("webhooks.delete")} />
      </section>

      {loaderData.confirmDelete ? (
        <ConfirmDeleteDialog title={t("webhooks.deleteTitle")} here={here} confirmText={t("webhooks.deleteConfirm")}>
          <p>{t("webhooks.deleteText", { url: webhook.url })}</p>
        </ConfirmDeleteDialog>
      ) : null}
    </section>
  );
}
