import type { MouseEventHandler, ReactNode } from "react";

/**
 * A submit button of the edit form that asks the server for one field's edit without JavaScript (an upload, a
 * crop, a thumbnail, a new tag): its name says which edit, its value which field. It posts the whole form, so the
 * other inputs survive the round trip, and skips the browser's checks, which a half-filled form would fail.
 */
export function FieldPostButton(props: {
  edit: string;
  field: string;
  formId: string;
  className?: string;
  disabled?: boolean;
  /** With JavaScript: a post of its own instead of the form's validated submit. */
  onClick?: MouseEventHandler<HTMLButtonElement>;
  children: ReactNode;
}) {
  return (
    <button
      type="submit"
      name={props.edit}
      value={props.field}
      form={props.formId}
      formNoValidate
      className={props.className ?? "button small"}
      disabled={props.disabled}
      onClick={props.onClick}
    >
      {props.children}
    </button>
  );
}
