import { useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { When } from "../when";

const subscribeToNothing = () => () => undefined;

/** Copies a link to the clipboard (JavaScript only: without it the link is there to select). */
export function CopyLinkButton({ url }: { url: string }) {
  const { t } = useTranslation();
  const hydrated = useSyncExternalStore(subscribeToNothing, () => true, () => false);
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
        {t("shareables.copy")}
      </button>
      <span role="status" className="muted shareable-copied">
        {copied === "yes" ? t("shareables.copied") : copied === "failed" ? t("shareables.copyFailed") : ""}
      </span>
    </>
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
        <input type="text" readOnly value={url} aria-label={t("shareables.created.link")} className="shareable-link-input" data-shareable-link onFocus={(event) => event.currentTarget.select()} />
        <CopyLinkButton url={url} />
      </p>
      <p className="muted">
        {t("shareables.created.expires")} <When iso={expiresAt} />
      </p>
    </div>
  );
}
