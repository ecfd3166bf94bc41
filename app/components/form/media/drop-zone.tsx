import { useState, type RefObject } from "react";
import { useTranslation } from "react-i18next";

/** 'Drag your {type} here / Browse to {type}' over the field's hidden file input (`inputRef`). */
export function DropZone(props: {
  type: string;
  inputId: string;
  inputRef: RefObject<HTMLInputElement | null>;
  accept?: string;
  describedBy?: string;
  /** The form is disabled: nothing is taken. */
  disabled: boolean;
  /** Browsing is off (no video processing on this server). */
  browseDisabled: boolean;
  onFiles(files: FileList | null): void;
}) {
  const { t } = useTranslation();
  const [dragging, setDragging] = useState(false);
  return (
    <div
      className={`drop-zone${dragging ? " dragging" : ""}`}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        event.preventDefault();
        setDragging(false);
        if (!props.disabled) props.onFiles(event.dataTransfer.files);
      }}
    >
      <span>{t("media.dropHere", { type: props.type })}</span> / {" "}
      <button type="button" className="link-button" onClick={() => props.inputRef.current?.click()} disabled={props.disabled || props.browseDisabled}>
        {t("media.browse", { type: props.type })}
      </button>
      <input
        ref={props.inputRef}
        id={props.inputId}
        type="file"
        className="visually-hidden"
        tabIndex={-1}
        accept={props.accept}
        disabled={props.disabled}
        aria-describedby={props.describedBy}
        onChange={(event) => props.onFiles(event.currentTarget.files)}
      />
    </div>
  );
}
