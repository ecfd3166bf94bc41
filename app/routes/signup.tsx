import type { RouteHandle } from "@core/route-handle";
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { FieldError, FormError } from "~/components/form-errors";
import { signUp, SignupFailure } from "@server/accounts/auth";
import { startSession } from "@server/web/sign-in";
import { requireSignupAllowed } from "@server/web/guards";
import { PASSWORD_MIN_LENGTH, signupSchema } from "@core/auth-schemas";
import { getRequestState } from "@server/web/request-state";
import type { Route } from "./+types/signup";
import { metaLocale, pageTitle } from "~/lib/page-title";
import { translate } from "@core/messages";
import { readForm } from "@server/web/read-form";
import { pageRoute } from "@server/web/respond";

export const handle = { messages: ["pages"] } satisfies RouteHandle;

/** The invitation link (/signup?code=…) fills in the code; a code that can still be redeemed opens the page. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const code = new URL(request.url).searchParams.get("code")?.trim().slice(0, 200) ?? "";
  await requireSignupAllowed(context, code);
  const { user } = await getRequestState(request, context);
  if (user) throw redirect("/");
  return { code };
}

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, translate(metaLocale(matches), "signup.title"));

export const action = pageRoute(async ({ request, context }: Route.ActionArgs) => {
  const formData = await readForm(request);
  const posted = formData.get("invitationCode");
  await requireSignupAllowed(context, typeof posted === "string" ? posted : null);
  const submission = parseWithZod(formData, { schema: signupSchema });
  if (submission.status !== "success") {
    return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  }
  try {
    const user = await signUp(context, submission.value);
    const cookie = await startSession(request, context, user);
    return redirect("/", { headers: { "Set-Cookie": cookie } });
  } catch (error) {
    if (!(error instanceof SignupFailure)) throw error;
    const field = error.code === "emailTaken" ? "email" : "invitationCode";
    return data(submission.reply({ fieldErrors: { [field]: [`signup.errors.${error.code}`] }, hideFields: ["password"] }), {
      status: error.code === "emailTaken" ? 409 : 400,
    });
  }
});

export default function Signup({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    lastResult: actionData,
    defaultValue: { invitationCode: loaderData.code },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signupSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const params = { min: PASSWORD_MIN_LENGTH };
  return (
    <section className="auth-card">
      <h1>{t("signup.title")}</h1>
      <Form method="post" {...getFormProps(form)}>
        <FormError errors={form.errors} />
        <label htmlFor={fields.name.id}>{t("signup.name")}</label>
        <input {...getInputProps(fields.name, { type: "text" })} autoComplete="name" />
        <FieldError field={fields.name} />
        <label htmlFor={fields.email.id}>{t("signup.email")}</label>
        <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" />
        <FieldError field={fields.email} />
        <label htmlFor={fields.password.id}>{t("signup.password")}</label>
        <input {...getInputProps(fields.password, { type: "password" })} autoComplete="new-password" />
        <FieldError field={fields.password} params={params} />
        <label htmlFor={fields.invitationCode.id}>{t("signup.invitationCode")}</label>
        <input {...getInputProps(fields.invitationCode, { type: "text" })} autoComplete="off" />
        <FieldError field={fields.invitationCode} />
        <button type="submit" className="button primary">
          {t("signup.submit")}
        </button>
      </Form>
      <p className="auth-alt">
        {t("signup.haveAccount")} <Link to="/login">{t("signup.loginLink")}</Link>
      </p>
    </section>
  );
}
