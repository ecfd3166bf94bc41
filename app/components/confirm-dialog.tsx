import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

/**
 * A confirm dialog (spec §2): title and text; confirming submits `confirm`
 * (a form, so it works without JavaScript), cancelling goes back to `cancelTo` (or calls `onCancel`, inside a
 * dialog that runs with JavaScript only).
 */
export function ConfirmDialog(props: { title: string; children: ReactNode; confirm: ReactNode } & ({ cancelTo: string } | { onCancel: () => void })) {
  const { t } = useTranslation();
  return (
    <div className="modal-backdrop">
      <div className="modal" role="alertdialog" aria-modal="true" aria-labelledby="confirm-title">
        <h2 id="confirm-title">{props.title}</h2>
        <div>{props.children}</div>
        <div className="modal-actions">
          {"onCancel" in props ? (
            <button type="button" className="button" onClick={() => props.onCancel()}>{t("form.cancel")}</button>
          ) : (
            <Link to={props.cancelTo} className="button" replace>
              {t("form.cancel")}
            </Link>
          )}
          {props.confirm}
        </div>
      </div>
    </div>
  );
}
