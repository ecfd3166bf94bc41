import { createContext, useContext } from "react";
import type { ReferenceCollection, ReferenceSearchReply, ReferenceTarget } from "@core/content/references";

export interface BucketFormSettings {
  locales: string[];
  activeLocale: string;
  setActiveLocale(locale: string): void;
  /** True once React runs in the browser: enhancements (tabs, drag, live counters) switch on. */
  hydrated: boolean;
  referenceOptions: Record<string, ReferenceCollection>;
  /** The documents the form's reference fields hold, by contentId: title and thumbnail, or deleted. */
  referenceTargets?: Record<string, ReferenceTarget>;
  /** Without JavaScript: the results of a reference field's search, re-rendered with the form. */
  referenceSearch?: ReferenceSearchReply | null;
  /** Spec §6: admins and devs may edit text ids and add or remove entries. */
  canEditTextIds: boolean;
  /** Every control inert and left out of a submission. */
  disabled?: boolean;
  /** Values shown but not editable, without editing buttons (an older document version). */
  readOnly?: boolean;
}

export const BucketFormContext = createContext<BucketFormSettings>({
  locales: [],
  activeLocale: "",
  setActiveLocale: () => undefined,
  hydrated: false,
  referenceOptions: {},
  canEditTextIds: false,
});

export const useBucketForm = () => useContext(BucketFormContext);

export interface FieldLock {
  disabled: boolean;
  /** Read-only and not disabled (disabled wins). */
  readOnly: boolean;
  /**
   * Disabled or read-only: the value cannot change, so a field shows the value it started with (a disabled
   * control is not part of the form's data, so the form's current value does not hold it).
   */
  locked: boolean;
  /** For inputs that can be read-only: text, textarea, number, date, time. */
  input: { disabled?: true; readOnly?: true };
  /** HTML has no read-only select, checkbox or colour input: they are disabled and marked read-only. */
  choice: { disabled?: true; "aria-readonly"?: true };
  /** Add, remove, step, clear, upload…: shown (disabled when the form is), or left out of a read-only form. */
  showEditButtons: boolean;
}

/** How the form's disabled and read-only settings apply to a field's controls. */
export function useFieldLock(): FieldLock {
  const settings = useBucketForm();
  const disabled = settings.disabled === true;
  const readOnly = settings.readOnly === true && !disabled;
  return {
    disabled,
    readOnly,
    locked: disabled || readOnly,
    input: disabled ? { disabled: true } : readOnly ? { readOnly: true } : {},
    choice: disabled ? { disabled: true } : readOnly ? { disabled: true, "aria-readonly": true } : {},
    showEditButtons: !readOnly,
  };
}
