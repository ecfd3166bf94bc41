import type { RouteHandle } from "@core/route-handle";
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { passRetryAfter } from "~/lib/route-headers";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { LoginFailure } from "@server/accounts/auth";
import { authenticate, startSession } from "@server/web/sign-in";
import { loginSchema } from "@core/auth-schemas";
import { getRequestState } from "@server/web/request-state";
import { safeRedirectPath } from "@core/safe-redirect";
import { FieldError, FormError } from "~/components/form-errors";
import type { Route } from "./+types/login";
import { metaLocale, pageTitle } from "~/lib/page-title";
import { translate } from "@core/messages";

export const handle = { messages: ["pages"] } satisfies RouteHandle;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await getRequestState(request, context);
  const fromUrl = safeRedirectPath(new URL(request.url).searchParams.get("from_url"));
  if (user) throw redirect(fromUrl);
  const passwordChanged = new URL(request.url).searchParams.get("password_changed") === "1";
  return { fromUrl, allowSignup: context.config.ALLOW_SIGNUP, passwordChanged };
}

/** The i18n key for each server error text of spec §8. */
const FAILURE_MESSAGES: Record<string, string> = {
  "unknown user": "login.errors.unknownUser",
  "incorrect password": "login.errors.incorrectPassword",
  "rate limited": "login.errors.rateLimited",
};

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.clone().formData();
  const submission = parseWithZod(formData, { schema: loginSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }), retryMinutes: 0 }, { status: 400 });
  }
  try {
    const user = await authenticate(request, context);
    const cookie = await startSession(request, context, user);
    return redirect(safeRedirectPath(submission.value.from_url), { headers: { "Set-Cookie": cookie } });
  } catch (error) {
    const failure = error instanceof LoginFailure ? error : null;
    if (!failure) context.logger.error({ err: error }, "sign-in failed unexpectedly");
    const message = FAILURE_MESSAGES[failure?.code ?? ""] ?? "login.errors.unknownError";
    return data(
      {
        result: submission.reply({ formErrors: [message], hideFields: ["password"] }),
        retryMinutes: Math.ceil((failure?.retryAfter ?? 0) / 60),
      },
      {
        status: failure?.status ?? 500,
        headers: failure?.retryAfter ? { "Retry-After": String(failure.retryAfter) } : undefined,
      },
    );
  }
}

export const headers = passRetryAfter;

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, translate(metaLocale(matches), "login.title"));

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    defaultValue: { from_url: loaderData.fromUrl },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
    // Not on blur: the email field has autofocus, so the first click anywhere (say, on 'Create an account')
    // would blur it, show 'Enter your email address' and push that link away from under the pointer.
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const params = { minutes: actionData?.retryMinutes ?? 0 };
  return (
    <section className="auth-card">
      <h1>{t("login.title")}</h1>
      {loaderData.passwordChanged ? (
        <p className="notice-success" role="status">
          {t("login.passwordChanged")}
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)}>
        <FormError errors={form.errors} params={params} />
        <input {...getInputProps(fields.from_url, { type: "hidden" })} />
        <label htmlFor={fields.email.id}>{t("login.email")}</label>
        {/* eslint-disable-next-line jsx-a11y/no-autofocus -- signing in is this page's one task: the cursor waits in its first field */}
        <input {...getInputProps(fields.email, { type: "email" })} autoComplete="username" autoFocus />
        <FieldError field={fields.email} />
        <label htmlFor={fields.password.id}>{t("login.password")}</label>
        <input {...getInputProps(fields.password, { type: "password" })} autoComplete="current-password" />
        <FieldError field={fields.password} />
        <button type="submit" className="button primary" disabled={navigation.state === "submitting"}>
          {t("login.submit")}
        </button>
      </Form>
      <p className="auth-alt">
        <Link to="/password-reset">{t("login.forgotPassword")}</Link>
      </p>
      {loaderData.allowSignup ? (
        <p className="auth-alt">
          {t("login.noAccount")} <Link to="/signup">{t("login.signupLink")}</Link>
        </p>
      ) : null}
    </section>
  );
}
