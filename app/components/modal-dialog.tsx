import type { ReactNode, Ref } from "react";

/**
 * A modal <dialog> element (its owner opens it with showModal()): Escape does not close it by itself but asks
 * `onCancel`, so the owner closes it the one way it closes on a button (forceCrop's has none: Escape does nothing).
 */
export function ModalDialog({
  ref,
  className,
  labelledBy,
  onCancel,
  children,
}: {
  ref: Ref<HTMLDialogElement>;
  className: string;
  labelledBy: string;
  onCancel?: () => void;
  children: ReactNode;
}) {
  return (
    <dialog
      ref={ref}
      className={`modal ${className}`}
      aria-labelledby={labelledBy}
      onCancel={(event) => {
        event.preventDefault();
        onCancel?.();
      }}
    >
      {children}
    </dialog>
  );
}
