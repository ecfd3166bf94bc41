import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { IntentForm } from "~/components/intent-form";
import { adminPasswordSchema } from "@core/account-schemas";
import { PASSWORD_MIN_LENGTH } from "@core/auth-schemas";
import { FieldError, FormError } from "~/components/form-errors";
import { CopyLinkButton } from "~/components/share/created-link";
import { DateTime } from "./people";

/*
 * A user's password on /settings/users/{id} (issue 36): the open request (without mail), "Set password" (a dialog,
 * ?password, so it works without JavaScript) and "Make reset link" (answered once, with the page).
 */

interface PasswordUser {
  id: string;
  name: string;
  isYou: boolean;
  deactivatedAt: string | null;
}

export interface MadeResetLink {
  url: string;
  expiresAt: string;
}

export function PasswordSection(props: {
  user: PasswordUser;
  requestedAt: string | null;
  made: MadeResetLink | null;
  linkMinutes: number;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const { user, made } = props;
  const here = `/settings/users/${user.id}`;
  const name = { name: user.name };
  return (
    <section className="people-password" id="password" aria-labelledby="user-password">
      <h2 id="user-password">{t("adminUsers.password.title")}</h2>
      {props.requestedAt ? (
        <div className="notice-warning" data-reset-request>
          <p>{t("adminUsers.password.requested", name)}</p>
          <p>
            {t("adminUsers.password.requestedAt")} <DateTime iso={props.requestedAt} />
          </p>
        </div>
      ) : null}
      {made ? (
        <div className="reset-link-made" role="status">
          <p className="reset-link-title">{t("adminUsers.password.linkMade", name)}</p>
          <p>{t("adminUsers.password.linkOnce", name)}</p>
          <p className="reset-link-field">
            <input
              type="text"
              readOnly
              value={made.url}
              aria-label={t("adminUsers.password.linkLabel")}
              data-reset-link
              onFocus={(event) => event.currentTarget.select()}
            />
            <CopyLinkButton url={made.url} />
          </p>
          <p className="muted">
            {t("adminUsers.password.linkExpires")} <DateTime iso={made.expiresAt} />
          </p>
        </div>
      ) : null}
      {user.isYou ? (
        <p className="muted">
          {t("adminUsers.password.own")} <Link to="/profile">{t("adminUsers.password.profileLink")}</Link>
        </p>
      ) : user.deactivatedAt ? (
        <p className="muted">{t("adminUsers.password.deactivatedHint")}</p>
      ) : (
        <>
          <p className="muted">{t("adminUsers.password.hint", name)}</p>
          <div className="people-password-actions">
            <Link to="?password" className="button" preventScrollReset>
              {t("adminUsers.password.set")}
            </Link>
            <IntentForm intent="resetLink" action={here} className="button" disabled={props.busy} preventScrollReset>
              {t("adminUsers.password.link")}
            </IntentForm>
          </div>
          <p className="muted">{t("adminUsers.password.linkHint", { ...name, minutes: props.linkMinutes })}</p>
        </>
      )}
    </section>
  );
}

/** The new password, typed twice (signup's rules); posts to ?password so that a refusal shows in the dialog. */
export function SetPasswordDialog({ user, lastResult }: { user: PasswordUser; lastResult: SubmissionResult | null }) {
  const { t } = useTranslation();
  const here = `/settings/users/${user.id}`;
  const [form, fields] = useForm({
    id: `password-${user.id}`,
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: adminPasswordSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const min = { min: PASSWORD_MIN_LENGTH };
  return (
    <div className="modal-backdrop">
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby="set-password-title">
        <h2 id="set-password-title">{t("adminUsers.password.setTitle", { name: user.name })}</h2>
        <p>{t("adminUsers.password.setText", { name: user.name })}</p>
        <Form method="post" action={`${here}?password`} {...getFormProps(form)} className="set-password-form">
          <FormError errors={form.errors} />
          <input type="hidden" name="intent" value="setPassword" />
          <label htmlFor={fields.password.id}>{t("adminUsers.password.newPassword")}</label>
          <input
            {...getInputProps(fields.password, { type: "password" })}
            key={fields.password.key}
            autoComplete="new-password"
            aria-describedby={`${fields.password.descriptionId} ${fields.password.errorId}`}
          />
          <p id={fields.password.descriptionId} className="field-hint muted">
            {t("adminUsers.password.rule", min)}
          </p>
          <FieldError field={fields.password} params={min} />
          <label htmlFor={fields.confirmPassword.id}>{t("adminUsers.password.confirm")}</label>
          <input
            {...getInputProps(fields.confirmPassword, { type: "password" })}
            key={fields.confirmPassword.key}
            autoComplete="new-password"
          />
          <FieldError field={fields.confirmPassword} />
          <div className="modal-actions">
            <Link to={here} className="button" replace preventScrollReset>
              {t("form.cancel")}
            </Link>
            <button type="submit" className="button primary">
              {t("adminUsers.password.setConfirm")}
            </button>
          </div>
        </Form>
      </div>
    </div>
  );
}
