import type { ReactNode } from "react";
import { RELEASE_NAME_MAX } from "@core/content/release";

/** A release's name and the button that sends it: the releases list's "create" and a release page's "rename". */
export function ReleaseNameField({
  label,
  rowClassName,
  defaultValue,
  errorId,
  children,
}: {
  label: string;
  rowClassName: string;
  defaultValue: string;
  /** The id of the message under the field, when the name was refused. */
  errorId?: string;
  /** The submit button. */
  children: ReactNode;
}) {
  return (
    <>
      <label htmlFor="release-name">{label}</label>
      <div className={rowClassName}>
        <input
          id="release-name"
          type="text"
          name="name"
          required
          maxLength={RELEASE_NAME_MAX}
          defaultValue={defaultValue}
          aria-invalid={errorId ? true : undefined}
          aria-describedby={errorId}
        />
        {children}
      </div>
    </>
  );
}
