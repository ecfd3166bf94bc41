import type { RouteHandle } from "@core/route-handle";
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { passRetryAfter } from "~/lib/route-headers";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { requestPasswordReset } from "@server/accounts/password-reset";
import { canSendMail } from "@server/mail/mailer";
import { getRequestState } from "@server/web/request-state";
import { pageRoute } from "@server/web/respond";
import { passwordResetRequestSchema } from "@core/account-schemas";
import { translate } from "@core/messages";
import { FieldError, FormError } from "~/components/form-errors";
import type { Route } from "./+types/request";
import { pageTitle } from "~/lib/page-title";
import { readForm } from "@server/web/read-form";

/** Its messages are in the catalogue's admin part (core/catalogue-parts.ts). */
export const handle = { messages: ["admin", "pages"] } satisfies RouteHandle;

/*
 * /password-reset: asks for the email address. Every request that passes the rate limits gets the same answer
 * (a redirect to ?requested=1), whether or not the address has an account; with mail, the account's owner gets
 * a link, without it the page says to ask an admin (the log notes the request).
 */

export const loader = pageRoute(async ({ request, context }: Route.LoaderArgs) => {
  const { locale } = await getRequestState(request, context);
  return {
    title: translate(locale, "passwordReset.title"),
    requested: new URL(request.url).searchParams.get("requested") === "1",
    canMail: canSendMail(context.config),
    product: context.config.PRODUCT_NAME,
  };
});

export const action = pageRoute(async ({ request, context }: Route.ActionArgs) => {
  const submission = parseWithZod(await readForm(request), { schema: passwordResetRequestSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), retryMinutes: 0 }, { status: 400 });
  const { locale } = await getRequestState(request, context);
  const outcome = await requestPasswordReset(context, {
    email: submission.value.email,
    locale,
    clientAddress: context.clientAddress,
    requestUrl: request.url,
  });
  if (outcome.status === "rateLimited") {
    const retryMinutes = Math.ceil(outcome.retryAfter / 60);
    return data(
      { result: submission.reply({ formErrors: ["passwordReset.rateLimited"] }), retryMinutes },
      { status: 429, headers: { "Retry-After": String(outcome.retryAfter) } },
    );
  }
  throw redirect("/password-reset?requested=1");
});

export const headers = passRetryAfter;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

export default function PasswordResetRequest({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: passwordResetRequestSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <section className="auth-card">
      <h1>{t("passwordReset.title")}</h1>
      {loaderData.requested ? (
        <p className={loaderData.canMail ? "notice-success" : "notice-warning"} role="status" data-reset-answer>
          {loaderData.canMail ? t("passwordReset.sent") : t("passwordReset.noMail", { product: loaderData.product })}
        </p>
      ) : (
        <>
          <p className="auth-intro">{t("passwordReset.intro")}</p>
          <Form method="post" {...getFormProps(form)}>
            <FormError errors={form.errors} params={{ minutes: actionData?.retryMinutes ?? 0 }} />
            <label htmlFor={fields.email.id}>{t("passwordReset.email")}</label>
            <input {...getInputProps(fields.email, { type: "email" })} key={fields.email.key} autoComplete="username" />
            <FieldError field={fields.email} />
            <button type="submit" className="button primary" disabled={navigation.state === "submitting"}>
              {t("passwordReset.submit")}
            </button>
          </Form>
        </>
      )}
      <p className="auth-alt auth-links">
        <Link to="/login">{t("passwordReset.backToLogin")}</Link>
        <Link to="/support">{t("passwordReset.support")}</Link>
      </p>
    </section>
  );
}
