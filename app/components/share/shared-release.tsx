import { useTranslation } from "react-i18next";
import type { SharedRelease } from "@core/content/shareables";
import { When } from "~/components/when";
import { SharedDocumentView } from "./shared-document";
import "./share-messages";
import "~/styles/shareables.css";

/*
 * A shared release (/shareables/{token} of a link to a release), read-only: its name, what its state means for what
 * the documents show, when the link expires, then each of its documents as a shared document is shown (at its
 * release version), with a list of them to jump to.
 */
export function SharedReleaseView({ shared }: { shared: SharedRelease }) {
  const { t } = useTranslation();
  return (
    <div className="shared-release">
      <header className="shared-release-head">
        <p className="eyebrow">{t("shareables.release.view.eyebrow")}</p>
        <h1>{shared.name}</h1>
        <p className="shared-release-state" data-release-state={shared.state}>
          {shared.state === "scheduled" && shared.scheduledAt ? (
            <>
              {t("shareables.release.view.scheduled")} <When iso={shared.scheduledAt} />
            </>
          ) : shared.state === "published" && shared.publishedAt ? (
            <>
              {t("shareables.release.view.published")} <When iso={shared.publishedAt} />
            </>
          ) : shared.state === "rolled_back" ? (
            t("shareables.release.view.rolledBack")
          ) : (
            t("shareables.release.view.open")
          )}
        </p>
        <p className="shared-about muted">
          {t("shareables.release.view.documents", { count: shared.documents.length })}
          {" · "}
          {t("shareables.view.expires")} <When iso={shared.expiresAt} />
        </p>
        {shared.documents.length > 1 ? (
          <nav aria-label={t("shareables.release.view.contents")} className="shared-release-contents">
            <ol>
              {shared.documents.map((document) => (
                <li key={document.contentId}>
                  <a href={`#document-${document.contentId}`}>{document.title}</a> <span className="muted">{document.bucketName}</span>
                </li>
              ))}
            </ol>
          </nav>
        ) : null}
      </header>
      {shared.documents.length ? (
        shared.documents.map((document) => (
          <section
            key={document.contentId}
            id={`document-${document.contentId}`}
            className="shared-release-item"
            data-document={document.contentId}
          >
            <SharedDocumentView shared={document} level={2} />
          </section>
        ))
      ) : (
        <p className="muted">{t("shareables.release.view.empty")}</p>
      )}
    </div>
  );
}
