import type { RouteHandle } from "@core/route-handle";
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { completePasswordReset, findResetToken, type ResetTokenState } from "@server/accounts/password-reset";
import { getRequestState } from "@server/web/request-state";
import { pageRoute } from "@server/web/respond";
import { passwordResetSchema } from "@core/account-schemas";
import { PASSWORD_MIN_LENGTH } from "@core/auth-schemas";
import { translate } from "@core/messages";
import { FieldError, FormError } from "~/components/form-errors";
import type { Route } from "./+types/token";
import { pageTitle } from "~/lib/page-title";
import { readForm } from "@server/web/read-form";

/** Its messages are in the catalogue's admin part (core/catalogue-parts.ts). */
export const handle = { messages: ["admin", "pages"] } satisfies RouteHandle;

/*
 * /password-reset/{id}: the mailed link. A valid token sets a new password once (signup's rules, twice), which
 * ends every session of the user; an unknown, used or expired one says so and links to a new request.
 */

const INVALID_STATUS: Record<Exclude<ResetTokenState, "valid">, 404 | 410> = { unknown: 404, used: 410, expired: 410 };

export const loader = pageRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const { locale } = await getRequestState(request, context);
  const { state, email } = await findResetToken(context.db, params.id);
  const page = { title: translate(locale, "passwordReset.set.title"), state, email };
  return state === "valid" ? page : data(page, { status: INVALID_STATUS[state] });
});

export const action = pageRoute(async ({ request, context, params }: Route.ActionArgs) => {
  const submission = parseWithZod(await readForm(request), { schema: passwordResetSchema });
  const hidden = { hideFields: ["password", "confirmPassword"] };
  if (submission.status !== "success") return data({ result: submission.reply(hidden), state: null }, { status: 400 });
  const state = await completePasswordReset(context, params.id, submission.value.password);
  if (state !== "valid") return data({ result: submission.reply(hidden), state }, { status: INVALID_STATUS[state] });
  // The cookie's session, if any, ended with the others: the next page is the sign-in.
  throw redirect("/login?password_changed=1");
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

export default function PasswordResetToken({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: passwordResetSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const state = actionData?.state ?? loaderData.state;
  if (state !== "valid") {
    return (
      <section className="auth-card" data-reset-state={state}>
        <h1>{t("passwordReset.invalid.title")}</h1>
        <p className="notice-warning" role="alert">
          {t(`passwordReset.invalid.${state}`)}
        </p>
        <p className="auth-alt auth-links">
          <Link to="/password-reset">{t("passwordReset.invalid.requestNew")}</Link>
          <Link to="/login">{t("passwordReset.backToLogin")}</Link>
        </p>
      </section>
    );
  }
  const min = { min: PASSWORD_MIN_LENGTH };
  return (
    <section className="auth-card">
      <h1>{t("passwordReset.set.title")}</h1>
      {loaderData.email ? <p className="auth-intro">{t("passwordReset.set.intro", { email: loaderData.email })}</p> : null}
      <Form method="post" {...getFormProps(form)}>
        <FormError errors={form.errors} />
        {/* Lets a password manager file the new password under the right account. */}
        <input type="text" name="username" value={loaderData.email ?? ""} autoComplete="username" readOnly hidden />
        <label htmlFor={fields.password.id}>{t("passwordReset.set.password")}</label>
        <input
          {...getInputProps(fields.password, { type: "password" })}
          key={fields.password.key}
          autoComplete="new-password"
          aria-describedby={`${fields.password.descriptionId} ${fields.password.errorId}`}
        />
        <p id={fields.password.descriptionId} className="field-hint">
          {t("passwordReset.set.hint", min)}
        </p>
        <FieldError field={fields.password} params={min} />
        <label htmlFor={fields.confirmPassword.id}>{t("passwordReset.set.confirm")}</label>
        <input
          {...getInputProps(fields.confirmPassword, { type: "password" })}
          key={fields.confirmPassword.key}
          autoComplete="new-password"
        />
        <FieldError field={fields.confirmPassword} />
        <button type="submit" className="button primary" disabled={navigation.state === "submitting"}>
          {t("passwordReset.set.submit")}
        </button>
      </Form>
    </section>
  );
}
