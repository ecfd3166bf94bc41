import { useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { When } from "~/components/when";
import "./share-messages";

const subscribeToNothing = () => () => undefined;

/**
 * The one Copy button: copies a link, code or token to the clipboard (JavaScript only: without it the text is in a
 * read-only field to select). `label` names the button ("Copy link" unless told).
 */
export function CopyLinkButton({ url, label }: { url: string; label?: string }) {
  const { t } = useTranslation();
  const hydrated = useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
  const [copied, setCopied] = useState<"no" | "yes" | "failed">("no");
  if (!hydrated) return null;
  const copy = () => {
    navigator.clipboard.writeText(url).then(
      () => setCopied("yes"),
      () => setCopied("failed"),
    );
  };
  return (
    <>
      <button type="button" className="button small" onClick={copy}>
        {label ?? t("shareables.copy")}
      </button>
      <span role="status" className="muted shareable-copied">
        {copied === "yes" ? t("shareables.copied") : copied === "failed" ? t(label ? "copyField.failed" : "shareables.copyFailed") : ""}
      </span>
    </>
  );
}

/** A secret shown this once: a read-only field (easy to select, with or without JavaScript) and its Copy button. */
export function CopyField({ value, label, copyLabel, marker }: { value: string; label: string; copyLabel: string; marker: string }) {
  return (
    <span className="copy-field">
      <input
        type="text"
        readOnly
        {...{ [`data-${marker}`]: "true" }}
        value={value}
        aria-label={label}
        onFocus={(event) => event.currentTarget.select()}
      />
      <CopyLinkButton url={value} label={copyLabel} />
    </span>
  );
}

/**
 * A link just made, shown this once (only its hash is kept): the link to select or copy, and when it stops
 * working.
 */
export function CreatedLink({ url, expiresAt }: { url: string; expiresAt: string }) {
  const { t } = useTranslation();
  return (
    <div className="notice-success shareable-created" role="status">
      <p className="shareable-created-title">{t("shareables.created.title")}</p>
      <p>{t("shareables.created.once")}</p>
      <p className="shareable-link">
        <input
          type="text"
          readOnly
          value={url}
          aria-label={t("shareables.created.link")}
          className="shareable-link-input"
          data-shareable-link
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyLinkButton url={url} />
      </p>
      <p className="muted">
        {t("shareables.created.expires")} <When iso={expiresAt} />
      </p>
    </div>
  );
}
