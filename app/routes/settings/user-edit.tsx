import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigation, type AppLoadContext } from "react-router";
import { IntentForm } from "~/components/intent-form";
import { makeResetLink, setUserPassword } from "@server/accounts/password-admin";
import { listOpenResetRequests, RESET_TOKEN_TTL_SECONDS, resetLink } from "@server/accounts/password-reset";
import { deleteUser, findAdminUser, setDeactivated, updateUser, UserAdminRefusal } from "@server/accounts/user-admin";
import { canSendMail } from "@server/mail/mailer";
import { requireAdmin } from "@server/web/guards";
import { HttpError } from "@server/errors";
import { getRequestState } from "@server/web/request-state";
import { pageRoute } from "@server/web/respond";
import { adminPasswordSchema } from "@core/account-schemas";
import { isUuid } from "@core/ids";
import { translate, type MessageKey } from "@core/messages";
import { bucketsOrAll, userEditSchema } from "@core/people-forms";
import { ConfirmDeleteDialog, DeleteOpener } from "~/components/confirm-dialog";
import { FieldError, FormError } from "~/components/form-errors";
import { BucketCheckboxes, DateTime, PermissionCheckboxes } from "~/components/settings/people";
import { PasswordSection, SetPasswordDialog, type MadeResetLink } from "~/components/settings/user-password";
import type { Route } from "./+types/user-edit";
import { bucketName } from "@core/content/bucket-name";
import { pageTitle } from "~/lib/page-title";
import { readForm } from "@server/web/read-form";

async function userFor(context: AppLoadContext, id: string | undefined) {
  const user = isUuid(id) ? await findAdminUser(context.db, id) : null;
  if (!user) throw new HttpError(404, "adminUsers.errors.notFound");
  return user;
}

export const loader = pageRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const admin = await requireAdmin(request, context);
  const user = await userFor(context, params.id);
  const { locale, buckets } = await getRequestState(request, context);
  const url = new URL(request.url);
  // Requests are kept, and listed, only while no mail can be sent (server/accounts/password-reset.ts).
  const [passwordRequest] = canSendMail(context.config) ? [] : await listOpenResetRequests(context.db, user.id);
  const mayResetPassword = user.id !== admin.id && !user.deactivatedAt;
  return {
    title: translate(locale, "adminUsers.edit.title", { name: user.name }),
    user: {
      id: user.id,
      name: user.name,
      email: user.email,
      permissions: user.permissions,
      buckets: user.buckets,
      lastSignInAt: user.lastSignInAt?.toISOString() ?? null,
      deactivatedAt: user.deactivatedAt?.toISOString() ?? null,
      createdAt: user.createdAt.toISOString(),
      isYou: user.id === admin.id,
    },
    buckets: [
      ...buckets.map((bucket) => ({ slug: bucket.slug, name: bucketName(bucket, locale), private: bucket.private, missing: false })),
      ...(user.buckets ?? [])
        .filter((slug) => !buckets.some((bucket) => bucket.slug === slug))
        .map((slug) => ({ slug, name: slug, private: false, missing: true })),
    ],
    notice: NOTICES[url.searchParams.get("done") ?? ""] ?? null,
    confirmDelete: url.searchParams.has("delete"),
    passwordRequestedAt: passwordRequest?.requestedAt.toISOString() ?? null,
    setPassword: url.searchParams.has("password") && mayResetPassword,
    linkMinutes: RESET_TOKEN_TTL_SECONDS / 60,
  };
});

/** What the page says after a change (the redirect's ?done=…). */
const NOTICES: Record<string, MessageKey> = {
  saved: "adminUsers.edit.saved",
  signedOut: "adminUsers.edit.savedSignedOut",
  deactivated: "adminUsers.edit.deactivatedDone",
  reactivated: "adminUsers.edit.reactivatedDone",
  passwordSet: "adminUsers.edit.passwordSetDone",
};

/** What an action answers with the page: a form's reply, a refusal, or the reset link made (shown this once). */
interface Answer {
  result: SubmissionResult | null;
  refusal: MessageKey | null;
  password: SubmissionResult | null;
  resetLink: MadeResetLink | null;
}
const answer = (part: Partial<Answer>): Answer => ({ result: null, refusal: null, password: null, resetLink: null, ...part });

export const action = pageRoute(async ({ request, context, params }: Route.ActionArgs) => {
  const admin = await requireAdmin(request, context);
  const user = await userFor(context, params.id);
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const here = `/settings/users/${user.id}`;
  try {
    if (intent === "deactivate" || intent === "reactivate") {
      await setDeactivated(context.db, admin, user.id, intent === "deactivate");
      return redirect(`${here}?done=${intent}d`);
    }
    if (intent === "delete") {
      await deleteUser(context.db, admin, user.id);
      return redirect(`/settings/users?${new URLSearchParams({ deleted: user.email }).toString()}`);
    }
    if (intent === "setPassword") {
      const submission = parseWithZod(formData, { schema: adminPasswordSchema });
      if (submission.status !== "success") {
        return data(answer({ password: submission.reply({ hideFields: ["password", "confirmPassword"] }) }), { status: 400 });
      }
      await setUserPassword(context.db, user.id, submission.value.password, admin);
      return redirect(`${here}?done=passwordSet`);
    }
    if (intent === "resetLink") {
      const made = await makeResetLink(context.db, user.id, admin);
      return data(
        answer({
          resetLink: { url: resetLink(request.url, context.config.PUBLIC_URL, made.token), expiresAt: made.expiresAt.toISOString() },
        }),
      );
    }
  } catch (error) {
    if (!(error instanceof UserAdminRefusal)) throw error;
    if (error.status === 404) throw new HttpError(404, error.key);
    return data(answer({ refusal: error.key }), { status: error.status });
  }
  if (intent !== null && intent !== "save") throw new HttpError(400, "errors.badRequest");

  const submission = parseWithZod(formData, { schema: userEditSchema });
  if (submission.status !== "success") return data(answer({ result: submission.reply() }), { status: 400 });
  try {
    const { sessionsEnded } = await updateUser(context.db, admin, user.id, {
      ...submission.value,
      buckets: bucketsOrAll(submission.value.buckets),
    });
    return redirect(`${here}?done=${sessionsEnded ? "signedOut" : "saved"}`);
  } catch (error) {
    if (!(error instanceof UserAdminRefusal)) throw error;
    if (error.status === 404) throw new HttpError(404, error.key);
    const reply = error.field
      ? submission.reply({ fieldErrors: { [error.field]: [error.key] } })
      : submission.reply({ formErrors: [error.key] });
    return data(answer({ result: reply }), { status: error.status });
  }
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

export default function UserEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const { user, buckets } = loaderData;
  const [form, fields] = useForm({
    id: `user-${user.id}`,
    lastResult: actionData?.result,
    defaultValue: { name: user.name, email: user.email, permissions: user.permissions, buckets: user.buckets ?? [] },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: userEditSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const busy = navigation.state === "submitting";
  const here = `/settings/users/${user.id}`;
  return (
    <section className="people">
      <p className="eyebrow">
        <Link to="/settings/users">{t("adminUsers.edit.back")}</Link>
      </p>
      <h1>
        {t("adminUsers.edit.title", { name: user.name })}
        {user.deactivatedAt ? <span className="tag tag-deactivated">{t("adminUsers.deactivated")}</span> : null}
      </h1>
      {loaderData.notice ? (
        <p className="notice-success" role="status">
          {t(loaderData.notice, { name: user.name })}
        </p>
      ) : null}
      {actionData?.refusal ? <FormError errors={[actionData.refusal]} /> : null}
      <dl className="people-facts">
        <div>
          <dt>{t("adminUsers.lastSignIn")}</dt>
          <dd>{user.lastSignInAt ? <DateTime iso={user.lastSignInAt} /> : t("adminUsers.never")}</dd>
        </div>
        <div>
          <dt>{t("adminUsers.edit.created")}</dt>
          <dd>
            <DateTime iso={user.createdAt} />
          </dd>
        </div>
      </dl>

      <Form method="post" action={here} {...getFormProps(form)} className="people-form">
        <FormError errors={form.errors} />
        <label htmlFor={fields.name.id}>{t("adminUsers.name")}</label>
        <input {...getInputProps(fields.name, { type: "text" })} autoComplete="off" />
        <FieldError field={fields.name} />
        <label htmlFor={fields.email.id}>{t("adminUsers.email")}</label>
        <input {...getInputProps(fields.email, { type: "email" })} autoComplete="off" />
        <FieldError field={fields.email} />
        <PermissionCheckboxes field={fields.permissions} />
        <BucketCheckboxes field={fields.buckets} buckets={buckets} />
        <p className="muted">{t("adminUsers.edit.accessHint")}</p>
        <button type="submit" name="intent" value="save" className="button primary" disabled={busy}>
          {t("adminUsers.edit.save")}
        </button>
      </Form>

      <PasswordSection
        user={user}
        requestedAt={loaderData.passwordRequestedAt}
        made={actionData?.resetLink ?? null}
        linkMinutes={loaderData.linkMinutes}
        busy={busy}
      />

      <section className="people-danger" aria-labelledby="account-status">
        <h2 id="account-status">{t("adminUsers.edit.status")}</h2>
        {user.deactivatedAt ? (
          <>
            <p>
              {t("adminUsers.edit.deactivatedSince")} <DateTime iso={user.deactivatedAt} />
            </p>
            <IntentForm intent="reactivate" action={here} className="button" disabled={busy}>
              {t("adminUsers.edit.reactivate")}
            </IntentForm>
          </>
        ) : (
          <>
            <p className="muted">{t("adminUsers.edit.deactivateHint")}</p>
            <IntentForm intent="deactivate" action={here} className="button" disabled={busy}>
              {t("adminUsers.edit.deactivate")}
            </IntentForm>
          </>
        )}
        <DeleteOpener hint={t("adminUsers.edit.deleteHint")} text={t("adminUsers.edit.delete")} />
      </section>

      {loaderData.confirmDelete && !actionData?.refusal ? (
        <ConfirmDeleteDialog title={t("adminUsers.edit.deleteTitle")} here={here} confirmText={t("adminUsers.edit.deleteConfirm")}>
          <p>{t(user.isYou ? "adminUsers.edit.deleteTextSelf" : "adminUsers.edit.deleteText", { name: user.name, email: user.email })}</p>
        </ConfirmDeleteDialog>
      ) : null}
      {loaderData.setPassword && !actionData?.refusal ? <SetPasswordDialog user={user} lastResult={actionData?.password ?? null} /> : null}
    </section>
  );
}
