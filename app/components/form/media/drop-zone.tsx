import { useState, type Ref } from "react";
import { useTranslation } from "react-i18next";

/** 'Drag your {type} here / Browse to {type}' over the field's hidden file input (`ref`). */
export function DropZone({
  type,
  inputId,
  ref,
  onBrowse,
  accept,
  describedBy,
  disabled,
  browseDisabled,
  onFiles,
}: {
  type: string;
  inputId: string;
  ref: Ref<HTMLInputElement>;
  /** Opens the file chooser of the input. */
  onBrowse: () => void;
  accept?: string;
  describedBy?: string;
  /** The form is disabled: nothing is taken. */
  disabled: boolean;
  /** Browsing is off (no video processing on this server). */
  browseDisabled: boolean;
  onFiles: (files: FileList | null) => void;
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
        if (!disabled) onFiles(event.dataTransfer.files);
      }}
    >
      <span>{t("media.dropHere", { type })}</span> /{" "}
      <button type="button" className="link-button" onClick={onBrowse} disabled={disabled || browseDisabled}>
        {t("media.browse", { type })}
      </button>
      <input
        ref={ref}
        id={inputId}
        type="file"
        className="visually-hidden"
        tabIndex={-1}
        accept={accept}
        disabled={disabled}
        aria-describedby={describedBy}
        onChange={(event) => onFiles(event.currentTarget.files)}
      />
    </div>
  );
}
