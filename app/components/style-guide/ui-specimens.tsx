import { useTranslation } from "react-i18next";
import { ErrorPage, ErrorPageFailure } from "~/components/error-page";
import { StatusNotice } from "~/components/flash-notice";
import { FieldError, FormError } from "~/components/form-errors";
import { LoadingBar } from "~/components/loading-bar";
import { TopBar } from "~/components/top-bar";

/** Each button style, enabled and disabled. */
export function ButtonSpecimens() {
  const { t } = useTranslation();
  const buttons = [
    { className: "button", label: t("form.cancel") },
    { className: "button primary", label: t("form.save") },
    { className: "button danger", label: t("form.delete") },
    { className: "button small", label: t("form.add") },
    { className: "link-button", label: t("media.browse", { type: t("media.types.image") }) },
  ];
  return (
    <div className="style-row-list">
      {[false, true].map((disabled) => (
        <div key={String(disabled)} className="style-row" data-state={disabled ? "disabled" : "enabled"}>
          <span className="style-row-name">{disabled ? t("styleGuide.states.disabled") : t("styleGuide.enabled")}</span>
          {buttons.map((button) => (
            <button key={button.className} type="button" className={button.className} disabled={disabled}>
              {button.label}
            </button>
          ))}
        </div>
      ))}
    </div>
  );
}

export function NoticeSpecimens() {
  const { t } = useTranslation();
  return (
    <div className="style-stack">
      <StatusNotice tone="success">{t("form.saved")}</StatusNotice>
      <StatusNotice tone="warning">{t("form.olderVersion")}</StatusNotice>
      <p className="empty">{t("overview.empty")}</p>
    </div>
  );
}

/** Errors of a whole form and of one field, as the sign-in and signup pages show them. */
export function FormErrorSpecimens() {
  return (
    <div className="style-stack">
      <FormError errors={["form.invalid"]} />
      <FormError errors={["login.errors.rateLimited"]} params={{ minutes: 15 }} />
      <FieldError field={{ errorId: "style-field-error", errors: ["login.errors.emailInvalid"] }} />
    </div>
  );
}

/** The bar as it shows after a failed load; while a page loads it is blue at the top of the window. */
export function LoadingBarSpecimen() {
  const { t } = useTranslation();
  return (
    <figure className="style-stage style-stage-bar" inert>
      <LoadingBar failed />
      <figcaption>{t("styleGuide.loadingBarFailed")}</figcaption>
    </figure>
  );
}

const NOT_FOUND = { status: 404, statusText: "Not Found", internal: false, data: "This page could not be found" };

export function ErrorPageSpecimens() {
  return (
    <div className="style-stack">
      <div className="style-stage">
        <ErrorPage error={NOT_FOUND} />
      </div>
      <div className="style-stage">
        <ErrorPage error={new Error("style guide sample")} />
      </div>
      <div className="style-stage">
        <ErrorPageFailure />
      </div>
    </div>
  );
}

/** The top bar of this page, for the signed-in user (a copy that does not respond). */
export function TopBarSpecimen() {
  return (
    <div className="style-stage style-stage-top-bar" inert>
      <TopBar />
    </div>
  );
}
