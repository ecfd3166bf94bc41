import type { RouteHandle } from "@core/route-handle";
import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { passRetryAfter } from "~/lib/route-headers";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { IntentForm } from "~/components/intent-form";
import { changePassword, updateProfile } from "@server/accounts/profile";
import { deleteAllSessions, deleteUserSession, listUserSessions } from "@server/accounts/sessions";
import { requireUser } from "@server/web/guards";
import { getRequestState } from "@server/web/request-state";
import { pageRoute } from "@server/web/respond";
import { passwordChangeSchema, profileSchema } from "@core/account-schemas";
import { PASSWORD_MIN_LENGTH } from "@core/auth-schemas";
import { normalizeLocale, SUPPORTED_LOCALES } from "@core/locales";
import { translate } from "@core/messages";
import { FieldError, FormError } from "~/components/form-errors";
import { formatWhen } from "~/components/when";
import type { Route } from "./+types/profile";
import { pageTitle } from "~/lib/page-title";
import { readForm } from "@server/web/read-form";

/** Its messages are in the catalogue's admin part (core/catalogue-parts.ts). */
export const handle = { messages: ["admin", "pages"] } satisfies RouteHandle;

/*
 * /profile: the user's name and interface language, a password change (the current password first; other
 * sessions end, this one stays), and the user's own sessions: sign one out, or all of them, this one included.
 */

const SAVED = ["details", "password", "session"] as const;

export const loader = pageRoute(async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireUser(request, context);
  const { session, locale } = await getRequestState(request, context);
  const sessions = await listUserSessions(context.db, user.id, session.get("token"));
  const saved = SAVED.find((value) => value === new URL(request.url).searchParams.get("saved")) ?? null;
  return {
    title: translate(locale, "profile.title"),
    name: user.name,
    email: user.email,
    locale: normalizeLocale(user.locale) ?? locale,
    saved,
    sessions: sessions.map((row) => ({
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      userAgent: row.userAgent,
      address: row.address,
      current: row.current,
    })),
  };
});

export const action = pageRoute(async ({ request, context }: Route.ActionArgs) => {
  const user = await requireUser(request, context);
  const { session } = await getRequestState(request, context);
  const formData = await readForm(request);
  const intent = formData.get("intent");

  if (intent === "signOutEverywhere") {
    await deleteAllSessions(context.db, user.id);
    session.unset("token");
    throw redirect("/login", { headers: { "Set-Cookie": await context.sessionStorage.commitSession(session) } });
  }
  if (intent === "signOutSession") {
    const id = formData.get("sessionId");
    const ended = typeof id === "string" && (await deleteUserSession(context.db, user.id, id));
    if (!ended) return data({ intent: "signOutSession" as const, result: undefined, failed: true, retryMinutes: 0 }, { status: 404 });
    throw redirect("/profile?saved=session");
  }
  if (intent === "password") {
    const submission = parseWithZod(formData, { schema: passwordChangeSchema });
    const hidden = { hideFields: ["currentPassword", "newPassword", "confirmPassword"] };
    if (submission.status !== "success")
      return data({ intent, result: submission.reply(hidden), failed: false, retryMinutes: 0 }, { status: 400 });
    const outcome = await changePassword(context.db, user, {
      currentPassword: submission.value.currentPassword,
      newPassword: submission.value.newPassword,
      keepToken: session.get("token") ?? "",
    });
    if (!outcome.ok && outcome.reason === "incorrect") {
      return data(
        {
          intent,
          result: submission.reply({ ...hidden, fieldErrors: { currentPassword: ["profile.errors.incorrectCurrent"] } }),
          failed: false,
          retryMinutes: 0,
        },
        { status: 400 },
      );
    }
    if (!outcome.ok) {
      const retryMinutes = Math.ceil(outcome.retryAfter / 60);
      return data(
        { intent, result: submission.reply({ ...hidden, formErrors: ["profile.errors.rateLimited"] }), failed: false, retryMinutes },
        { status: 429, headers: { "Retry-After": String(outcome.retryAfter) } },
      );
    }
    context.logger.info({ userId: user.id, endedSessions: outcome.endedSessions }, "password changed on the profile");
    throw redirect("/profile?saved=password");
  }
  const submission = parseWithZod(formData, { schema: profileSchema });
  if (submission.status !== "success")
    return data({ intent: "details" as const, result: submission.reply(), failed: false, retryMinutes: 0 }, { status: 400 });
  await updateProfile(context.db, user.id, submission.value);
  // The session's language wins over the account's (server/web/request-state.ts): both change.
  session.set("locale", submission.value.locale);
  throw redirect("/profile?saved=details", { headers: { "Set-Cookie": await context.sessionStorage.commitSession(session) } });
});

export const headers = passRetryAfter;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

/** A short name for a browser's user agent: enough to recognise a session, never more than the agent says. */
function browserName(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const browser = [/Edg\/[\d.]+/, /Firefox\/[\d.]+/, /Chrome\/[\d.]+/, /Version\/[\d.]+.*Safari/, /Safari\/[\d.]+/]
    .map((pattern) => pattern.exec(userAgent)?.[0])
    .find(Boolean);
  const system = /Windows|Android|iPhone|iPad|Mac OS X|Linux|CrOS/.exec(userAgent)?.[0];
  const label = [
    browser
      ?.replace(/\/([\d]+)[\d.]*/, " $1")
      .replace(/^Edg /, "Edge ")
      .replace(/^Version (\d+).*Safari$/, "Safari $1"),
    system,
  ]
    .filter(Boolean)
    .join(", ");
  return label || userAgent.slice(0, 60);
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [detailsForm, details] = useForm({
    id: "profile-details",
    lastResult: actionData?.intent === "details" ? actionData.result : undefined,
    defaultValue: { name: loaderData.name, locale: loaderData.locale },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: profileSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const [passwordForm, password] = useForm({
    id: "profile-password",
    lastResult: actionData?.intent === "password" ? actionData.result : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: passwordChangeSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const min = { min: PASSWORD_MIN_LENGTH };
  return (
    <section className="account-page profile-page">
      <h1>{t("profile.title")}</h1>

      <section className="account-section" aria-labelledby="profile-details-title">
        <h2 id="profile-details-title">{t("profile.details.title")}</h2>
        {loaderData.saved === "details" ? (
          <p className="notice-success" role="status">
            {t("profile.details.saved")}
          </p>
        ) : null}
        <Form method="post" className="account-form" {...getFormProps(detailsForm)}>
          <FormError errors={detailsForm.errors} />
          <input type="hidden" name="intent" value="details" />
          <label htmlFor={details.name.id}>{t("profile.details.name")}</label>
          <input {...getInputProps(details.name, { type: "text" })} key={details.name.key} autoComplete="name" />
          <FieldError field={details.name} />
          <label htmlFor="profile-email">{t("profile.details.email")}</label>
          <input id="profile-email" type="email" value={loaderData.email} readOnly aria-describedby="profile-email-hint" />
          <p id="profile-email-hint" className="field-hint">
            {t("profile.details.emailHint")}
          </p>
          <label htmlFor={details.locale.id}>{t("profile.details.language")}</label>
          <select {...getSelectProps(details.locale)} key={details.locale.key}>
            {SUPPORTED_LOCALES.map((locale) => (
              <option key={locale} value={locale} lang={locale}>
                {t(`profile.languages.${locale}`)}
              </option>
            ))}
          </select>
          <FieldError field={details.locale} />
          <button type="submit" className="button primary" disabled={busy}>
            {t("profile.details.save")}
          </button>
        </Form>
      </section>

      <section className="account-section" aria-labelledby="profile-password-title">
        <h2 id="profile-password-title">{t("profile.password.title")}</h2>
        {loaderData.saved === "password" ? (
          <p className="notice-success" role="status">
            {t("profile.password.changed")}
          </p>
        ) : null}
        <Form method="post" className="account-form" {...getFormProps(passwordForm)}>
          <FormError errors={passwordForm.errors} params={{ minutes: actionData?.retryMinutes ?? 0 }} />
          <input type="hidden" name="intent" value="password" />
          {/* Lets a password manager file the new password under the right account. */}
          <input type="text" name="username" value={loaderData.email} autoComplete="username" readOnly hidden />
          <label htmlFor={password.currentPassword.id}>{t("profile.password.current")}</label>
          <input
            {...getInputProps(password.currentPassword, { type: "password" })}
            key={password.currentPassword.key}
            autoComplete="current-password"
          />
          <FieldError field={password.currentPassword} />
          <label htmlFor={password.newPassword.id}>{t("profile.password.new")}</label>
          <input
            {...getInputProps(password.newPassword, { type: "password" })}
            key={password.newPassword.key}
            autoComplete="new-password"
            aria-describedby={`${password.newPassword.descriptionId} ${password.newPassword.errorId}`}
          />
          <p id={password.newPassword.descriptionId} className="field-hint">
            {t("profile.password.hint", min)}
          </p>
          <FieldError field={password.newPassword} params={min} />
          <label htmlFor={password.confirmPassword.id}>{t("profile.password.confirm")}</label>
          <input
            {...getInputProps(password.confirmPassword, { type: "password" })}
            key={password.confirmPassword.key}
            autoComplete="new-password"
          />
          <FieldError field={password.confirmPassword} />
          <button type="submit" className="button primary" disabled={busy}>
            {t("profile.password.submit")}
          </button>
        </Form>
      </section>

      <section className="account-section" aria-labelledby="profile-sessions-title">
        <h2 id="profile-sessions-title">{t("profile.sessions.title")}</h2>
        <p className="account-intro">{t("profile.sessions.intro")}</p>
        {loaderData.saved === "session" ? (
          <p className="notice-success" role="status">
            {t("profile.sessions.ended")}
          </p>
        ) : null}
        {actionData?.intent === "signOutSession" ? (
          <div className="form-error" role="alert">
            <p>{t("profile.errors.sessionGone")}</p>
          </div>
        ) : null}
        <ul className="session-list">
          {loaderData.sessions.map((session) => (
            <li key={session.id} className="session-card" data-current={session.current || undefined}>
              <div className="session-info">
                <span className="session-browser">{browserName(session.userAgent) ?? t("profile.sessions.unknownBrowser")}</span>
                {session.current ? <span className="session-current">{t("profile.sessions.current")}</span> : null}
                <span className="muted" suppressHydrationWarning>
                  {t("profile.sessions.signedIn", { date: formatWhen(i18n.language, session.createdAt) })}
                  {session.address ? ` ${t("profile.sessions.from", { address: session.address })}` : null}
                </span>
              </div>
              {session.current ? null : (
                <IntentForm intent="signOutSession" fields={{ sessionId: session.id }} className="button small">
                  {t("profile.sessions.signOut")}
                </IntentForm>
              )}
            </li>
          ))}
        </ul>
        <Form method="post" className="sign-out-everywhere">
          <input type="hidden" name="intent" value="signOutEverywhere" />
          <p className="muted">{t("profile.sessions.everywhereHint")}</p>
          <button type="submit" className="button danger">
            {t("profile.sessions.everywhere")}
          </button>
        </Form>
      </section>
    </section>
  );
}
