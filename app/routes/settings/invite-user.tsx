import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { listOpenInvitations } from "@server/accounts/invitations";
import { inviteUser, publicOrigin, revokeInvitationAs } from "@server/accounts/invite";
import { canSendMail } from "@server/mail/mailer";
import { requireAdmin } from "@server/web/guards";
import { HttpError } from "@server/errors";
import { getRequestState } from "@server/web/request-state";
import { pageRoute } from "@server/web/respond";
import { isUuid } from "@core/ids";
import { translate, type MessageKey } from "@core/messages";
import { bucketsOrAll, INVITATION_DAYS, invitationSchema } from "@core/people-forms";
import { FieldError, FormError } from "~/components/form-errors";
import { CopyField } from "~/components/share/created-link";
import { BucketCheckboxes, BucketList, DateTime, PermissionCheckboxes, PermissionList } from "~/components/settings/people";
import type { Route } from "./+types/invite-user";
import { bucketName } from "@core/content/bucket-name";
import { pageTitle } from "~/lib/page-title";
import { readForm } from "@server/web/read-form";

export const loader = pageRoute(async ({ request, context }: Route.LoaderArgs) => {
  await requireAdmin(request, context);
  const { locale, buckets } = await getRequestState(request, context);
  const invitations = await listOpenInvitations(context.db);
  return {
    title: translate(locale, "adminInvitations.title"),
    canMail: canSendMail(context.config),
    buckets: buckets.map((bucket) => ({ slug: bucket.slug, name: bucketName(bucket, locale), private: bucket.private })),
    notice: NOTICES[new URL(request.url).searchParams.get("done") ?? ""] ?? null,
    invitations: invitations.map((invitation) => ({
      id: invitation.id,
      email: invitation.email,
      permissions: invitation.permissions,
      buckets: invitation.buckets,
      createdByName: invitation.createdByName,
      expiresAt: invitation.expiresAt.toISOString(),
    })),
  };
});

const NOTICES: Record<string, MessageKey> = {
  revoked: "adminInvitations.open.revoked",
  notOpen: "adminInvitations.open.notOpen",
};

/**
 * Creating answers with the page itself (no redirect): the code and link are shown this once, and never travel in
 * a URL that a history, a proxy or a log could keep.
 */
export const action = pageRoute(async ({ request, context }: Route.ActionArgs) => {
  const admin = await requireAdmin(request, context);
  const formData = await readForm(request);
  const intent = formData.get("intent");
  if (intent === "revoke") {
    const id = formData.get("id");
    if (typeof id !== "string" || !isUuid(id)) throw new HttpError(400, "errors.badRequest");
    const revoked = await revokeInvitationAs(context, admin, id);
    return redirect(`/settings/invite-user?done=${revoked ? "revoked" : "notOpen"}`);
  }
  if (intent !== null && intent !== "create") throw new HttpError(400, "errors.badRequest");

  const submission = parseWithZod(formData, { schema: invitationSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), created: null }, { status: 400 });
  const { locale, buckets } = await getRequestState(request, context);
  const known = new Set(buckets.map((bucket) => bucket.slug));
  if (submission.value.buckets.some((slug) => !known.has(slug))) {
    return data(
      { result: submission.reply({ fieldErrors: { buckets: ["adminUsers.errors.unknownBucket"] } }), created: null },
      { status: 400 },
    );
  }
  const created = await inviteUser(
    context,
    admin,
    { ...submission.value, buckets: bucketsOrAll(submission.value.buckets) },
    { origin: publicOrigin(request.url, context), locale },
  );
  return data({
    result: submission.reply({ resetForm: true }),
    created: {
      code: created.code,
      link: created.link,
      email: created.email,
      mail: created.mail,
      expiresAt: created.expiresAt.toISOString(),
    },
  });
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

const MAIL_STATES = {
  sent: "adminInvitations.created.mailSent",
  failed: "adminInvitations.created.mailFailed",
  notConfigured: "adminInvitations.created.mailNotConfigured",
  noEmail: "adminInvitations.created.noEmail",
} as const;

export default function InviteUser({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "invite-user",
    lastResult: actionData?.result,
    defaultValue: { permissions: ["user"], buckets: [], days: String(INVITATION_DAYS.default) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: invitationSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const created = actionData?.created;
  const busy = navigation.state === "submitting";
  return (
    <section className="people">
      <h1>{t("adminInvitations.title")}</h1>
      <p className="muted">{t("adminInvitations.intro")}</p>
      {loaderData.notice ? (
        <p className="notice-success" role="status">
          {t(loaderData.notice)}
        </p>
      ) : null}

      {created ? (
        <section className="invitation-created" aria-labelledby="invitation-created">
          <h2 id="invitation-created">{t("adminInvitations.created.title")}</h2>
          {created.mail === "sent" ? (
            <p className="notice-success" role="status">
              {t(MAIL_STATES.sent, { email: created.email })}
            </p>
          ) : (
            <p
              className={created.mail === "failed" ? "form-error" : "notice-warning"}
              role={created.mail === "failed" ? "alert" : "status"}
            >
              {t(MAIL_STATES[created.mail], { email: created.email })}
            </p>
          )}
          <dl className="invitation-secret">
            <dt>{t("adminInvitations.created.code")}</dt>
            <dd>
              <CopyField
                value={created.code}
                label={t("adminInvitations.created.code")}
                copyLabel={t("adminInvitations.created.copyCode")}
                marker="invitation-code"
              />
            </dd>
            <dt>{t("adminInvitations.created.link")}</dt>
            <dd>
              <CopyField
                value={created.link}
                label={t("adminInvitations.created.link")}
                copyLabel={t("adminInvitations.created.copyLink")}
                marker="invitation-link"
              />
            </dd>
          </dl>
          <p className="muted">
            {t("adminInvitations.created.once")} {t("adminInvitations.created.expires")} <DateTime iso={created.expiresAt} />
          </p>
        </section>
      ) : null}

      <Form method="post" action="/settings/invite-user" {...getFormProps(form)} className="people-form">
        <h2>{t("adminInvitations.form.title")}</h2>
        <FormError errors={form.errors} />
        <label htmlFor={fields.email.id}>{t("adminInvitations.form.email")}</label>
        <input {...getInputProps(fields.email, { type: "email" })} autoComplete="off" aria-describedby={`${fields.email.id}-hint`} />
        <p id={`${fields.email.id}-hint`} className="muted field-hint">
          {loaderData.canMail ? t("adminInvitations.form.emailHintMail") : t("adminInvitations.form.emailHintNoMail")}
        </p>
        <FieldError field={fields.email} />
        <PermissionCheckboxes field={fields.permissions} />
        <BucketCheckboxes field={fields.buckets} buckets={loaderData.buckets} />
        <label htmlFor={fields.days.id}>{t("adminInvitations.form.days")}</label>
        <input
          {...getInputProps(fields.days, { type: "number" })}
          min={INVITATION_DAYS.min}
          max={INVITATION_DAYS.max}
          step={1}
          className="days-input"
        />
        <FieldError field={fields.days} params={{ min: INVITATION_DAYS.min, max: INVITATION_DAYS.max }} />
        <button type="submit" name="intent" value="create" className="button primary" disabled={busy}>
          {t("adminInvitations.form.submit")}
        </button>
      </Form>

      <h2>{t("adminInvitations.open.title")}</h2>
      {loaderData.invitations.length === 0 ? (
        <p className="empty">{t("adminInvitations.open.empty")}</p>
      ) : (
        <table className="content-table people-table invitations-table">
          <thead>
            <tr>
              <th scope="col">{t("adminInvitations.open.email")}</th>
              <th scope="col">{t("adminUsers.permissions")}</th>
              <th scope="col">{t("adminUsers.buckets")}</th>
              <th scope="col">{t("adminInvitations.open.createdBy")}</th>
              <th scope="col">{t("adminInvitations.open.expires")}</th>
              <th scope="col">
                <span className="visually-hidden">{t("adminInvitations.open.actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {loaderData.invitations.map((invitation) => (
              <tr key={invitation.id}>
                <td data-label={t("adminInvitations.open.email")} className="people-email">
                  {invitation.email ?? <span className="muted">{t("adminInvitations.open.anyone")}</span>}
                </td>
                <td data-label={t("adminUsers.permissions")}>
                  <PermissionList permissions={invitation.permissions} />
                </td>
                <td data-label={t("adminUsers.buckets")}>
                  <BucketList buckets={invitation.buckets} />
                </td>
                <td data-label={t("adminInvitations.open.createdBy")}>{invitation.createdByName ?? <span className="muted">—</span>}</td>
                <td data-label={t("adminInvitations.open.expires")}>
                  <DateTime iso={invitation.expiresAt} />
                </td>
                <td>
                  <Form method="post" action="/settings/invite-user">
                    <input type="hidden" name="id" value={invitation.id} />
                    <button
                      type="submit"
                      name="intent"
                      value="revoke"
                      className="button small"
                      aria-label={t("adminInvitations.open.revokeLabel", { email: invitation.email ?? t("adminInvitations.open.anyone") })}
                    >
                      {t("adminInvitations.open.revoke")}
                    </button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
