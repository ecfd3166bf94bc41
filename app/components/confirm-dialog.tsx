import { useEffect, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { IntentForm } from "~/components/intent-form";

type Cancel =
  /** Cancelling goes back to this URL (a link, so it works without JavaScript). */
  | { cancelTo: string; onCancel?: never; cancelText?: never }
  /** Cancelling calls this (a dialog that only exists with JavaScript); it has the focus, and Escape cancels too. */
  | { onCancel: () => void; cancelText?: string; cancelTo?: never };

/**
 * A confirm dialog (spec §2): title and text; confirming submits `confirm`
 * (a form, so it works without JavaScript), cancelling goes back to `cancelTo`
 * or calls `onCancel`.
 */
export function ConfirmDialog(props: { title: string; children: ReactNode; confirm: ReactNode } & Cancel) {
  const { t } = useTranslation();
  const { onCancel } = props;
  useEffect(() => {
    if (!onCancel) return;
    const escape = (event: KeyboardEvent) => event.key === "Escape" && onCancel();
    window.addEventListener("keydown", escape);
    return () => window.removeEventListener("keydown", escape);
  }, [onCancel]);
  return (
    <div className="modal-backdrop">
      <div className="modal" role="alertdialog" aria-modal="true" aria-labelledby="confirm-title">
        <h2 id="confirm-title">{props.title}</h2>
        <div>{props.children}</div>
        <div className="modal-actions">
          {onCancel ? (
            // eslint-disable-next-line jsx-a11y/no-autofocus -- the dialog opens on a navigation the user started: focus moves into it
            <button type="button" className="button" onClick={onCancel} autoFocus>
              {props.cancelText ?? t("form.cancel")}
            </button>
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

/** A confirm dialog whose confirming posts a dangerous `intent` (delete, revoke) to the page's action. */
export function ConfirmIntentDialog(props: {
  title: string;
  cancelTo: string;
  intent: string;
  action?: string;
  fields?: Record<string, string>;
  confirmText: string;
  children: ReactNode;
}) {
  return (
    <ConfirmDialog
      title={props.title}
      cancelTo={props.cancelTo}
      confirm={
        <IntentForm intent={props.intent} action={props.action} fields={props.fields} className="button danger">
          {props.confirmText}
        </IntentForm>
      }
    >
      {props.children}
    </ConfirmDialog>
  );
}

/**
 * A page's own delete (a user's, a webhook's), in two parts: the hint and the button that opens the dialog (?delete),
 * in the page's danger zone; the dialog, at the page's end, whose confirming posts intent "delete" to `here`.
 */
export function DeleteOpener({ hint, text }: { hint: string; text: string }) {
  return (
    <>
      <p className="muted">{hint}</p>
      <Link to="?delete" className="button danger" preventScrollReset>
        {text}
      </Link>
    </>
  );
}

export function ConfirmDeleteDialog(props: { title: string; here: string; confirmText: string; children: ReactNode }) {
  return (
    <ConfirmIntentDialog title={props.title} cancelTo={props.here} intent="delete" action={props.here} confirmText={props.confirmText}>
      {props.children}
    </ConfirmIntentDialog>
  );
}
