import { useCallback, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useBlocker, type BlockerFunction } from "react-router";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { SUBFORM_FIELD } from "@core/form/field-kind";

/** The form's own entries (`__contentId`, Conform's intent and state, pending uploads …), not the editor's input. */
function ownEntry(name: string): boolean {
  if (!name.startsWith("__")) return false;
  // An inline sub-form's fields (`__subforms.room.name`) are the editor's; its `__contentId` and base version are not.
  if (name.startsWith(`${SUBFORM_FIELD}.`)) return /\.__[^.]*$/.test(name);
  return true;
}

/**
 * The form's state as a string to compare: every entry but the form's own (`__contentId`, Conform's intent and
 * state, pending uploads …, all named `__…`), an inline sub-form's fields included (`__subforms.room.name`, but
 * not its own `__contentId` and base version); a chosen file by its name and size. The presence panel reports
 * unsaved changes by the same comparison (app/components/presence/presence-panel.tsx).
 */
export function formSnapshot(form: HTMLFormElement): string {
  const entries: string[] = [];
  for (const [name, value] of new FormData(form)) {
    if (ownEntry(name)) continue;
    entries.push(`${name}=${typeof value === "string" ? value : `file:${value.name}:${value.size}`}`);
  }
  return JSON.stringify(entries);
}

/**
 * Asks before leaving a page whose form has changes that are not saved (JavaScript only: without it nothing can
 * ask). In-app navigation (a link, the language switch, sign-out) is held by React Router's blocker and shows the
 * confirm dialog; closing or reloading the tab gets the browser's own question (beforeunload). The form is
 * compared with how it was when the page was shown, so undoing a change undoes the question; a post of the form
 * itself (save, and its redirect to the saved version, which mounts a fresh form) is never held.
 */
export function UnsavedChangesGuard({ formId }: { formId: string }) {
  const { t } = useTranslation();
  const baseline = useRef<string | null>(null);

  useEffect(() => {
    const form = document.getElementById(formId);
    if (form instanceof HTMLFormElement) baseline.current = formSnapshot(form);
  }, [formId]);

  const isDirty = useCallback(() => {
    const form = document.getElementById(formId);
    return baseline.current !== null && form instanceof HTMLFormElement && formSnapshot(form) !== baseline.current;
  }, [formId]);

  const shouldBlock = useCallback<BlockerFunction>(
    // The form's own post goes to this page's URL; anything else leaves it.
    ({ currentLocation, nextLocation }) => currentLocation.pathname !== nextLocation.pathname && isDirty(),
    [isDirty],
  );
  const blocker = useBlocker(shouldBlock);

  useEffect(() => {
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (!isDirty()) return;
      event.preventDefault();
    };
    window.addEventListener("beforeunload", beforeUnload);
    return () => window.removeEventListener("beforeunload", beforeUnload);
  }, [isDirty]);

  if (blocker.state !== "blocked") return null;
  return (
    <ConfirmDialog
      title={t("form.unsavedTitle")}
      onCancel={() => blocker.reset()}
      cancelText={t("form.unsavedStay")}
      confirm={
        <button type="button" className="button danger" onClick={() => blocker.proceed()}>
          {t("form.unsavedLeave")}
        </button>
      }
    >
      <p>{t("form.unsavedText")}</p>
    </ConfirmDialog>
  );
}
