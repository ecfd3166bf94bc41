import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useNavigation } from "react-router";
import { requireAdmin } from "@server/web/guards";
import { getRequestState } from "@server/web/request-state";
import { pageRoute } from "@server/web/respond";
import { bucketChoices, saveWebhookForm } from "@server/webhooks/admin";
import { translate } from "@core/messages";
import { webhookCreateSchema } from "@core/webhook-forms";
import { FormError } from "~/components/form-errors";
import { WebhookFields } from "~/components/settings/webhook-fields";
import "~/styles/webhooks.css";
import type { Route } from "./+types/webhook-new";
import { pageTitle } from "~/lib/page-title";
import { CopyField } from "~/components/share/created-link";
import { readForm } from "@server/web/read-form";

/*
 * /settings/webhooks/new: register a webhook. A generated secret is shown once, in the answer to the POST (never
 * in a URL or a log), with a link to the webhook's page.
 */

export const loader = pageRoute(async ({ request, context }: Route.LoaderArgs) => {
  await requireAdmin(request, context);
  const { locale } = await getRequestState(request, context);
  return { title: translate(locale, "webhooks.newTitle"), buckets: await bucketChoices(context, locale) };
});

export const action = pageRoute(async ({ request, context }: Route.ActionArgs) => {
  const admin = await requireAdmin(request, context);
  const submission = parseWithZod(await readForm(request), { schema: webhookCreateSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), params: null, created: null }, { status: 400 });
  const saved = await saveWebhookForm(context, admin, null, submission.value);
  if (!saved) throw new Error("the webhook was not created");
  if (!saved.ok) {
    return data(
      {
        result: submission.reply({ fieldErrors: { [saved.field]: [saved.message.key] } }),
        params: saved.message.params ?? null,
        created: null,
      },
      { status: 400 },
    );
  }
  const webhook = saved.webhook;
  if (!webhook) throw new Error("the webhook was not created");
  // Rendered in this answer only: the secret is never in a URL or a log.
  return data(
    { result: submission.reply({ resetForm: true }), params: null, created: { id: webhook.id, url: webhook.url, secret: saved.secret } },
    { status: 201 },
  );
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

export default function WebhookNew({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "webhook-new",
    lastResult: actionData?.result,
    defaultValue: { events: ["document.saved", "document.deleted"], scope: "all", secretMode: "generate" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: webhookCreateSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const created = actionData?.created;
  return (
    <section className="webhooks-page">
      <p className="eyebrow">
        <Link to="/settings/webhooks">{t("webhooks.back")}</Link>
      </p>
      <h1>{t("webhooks.newTitle")}</h1>
      {created ? (
        <div className="client-token notice-success" role="status">
          <h2>{t("webhooks.created.title")}</h2>
          <p className="webhook-url">
            <code>{created.url}</code>
          </p>
          {created.secret ? (
            <>
              <p>{t("webhooks.created.once")}</p>
              <p className="webhook-secret-title">{t("webhooks.created.secretTitle")}</p>
              <CopyField
                value={created.secret}
                label={t("webhooks.created.secretTitle")}
                copyLabel={t("webhooks.copySecret")}
                marker="webhook-secret"
              />
            </>
          ) : null}
          <p>
            <Link to={`/settings/webhooks/${created.id}`}>{t("webhooks.created.open")}</Link>
          </p>
        </div>
      ) : (
        <>
          <p className="account-intro">
            {t("webhooks.intro")} <Link to="/help#webhooks">{t("webhooks.helpLink")}</Link>
          </p>
          <Form method="post" className="account-form webhook-form" {...getFormProps(form)}>
            <FormError errors={form.errors} />
            <WebhookFields fields={fields} buckets={loaderData.buckets} mode="create" params={actionData?.params ?? undefined} />
            <button type="submit" className="button primary" disabled={navigation.state === "submitting"}>
              {t("webhooks.create")}
            </button>
          </Form>
        </>
      )}
    </section>
  );
}
