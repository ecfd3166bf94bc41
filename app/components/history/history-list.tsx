import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { historyPaths, type HistoryEntry, type HistoryPage } from "../../../core/content/history";

/*
 * A document's versions, newest first, a page at a time, server-rendered: each links to its page, says when, by
 * whom and with which schema version it was saved, and (but the latest) offers 'Restore', a POST form; two radio
 * columns choose the versions the GET form 'Compare' compares. All of it works without JavaScript.
 */

export interface HistoryListProps {
  bucketSlug: string;
  history: HistoryPage;
  /** The version the page shows (marked in the list). */
  currentVersionId?: string | null;
  /** Admins see the schema version as a link to the bucket's schema history. */
  schemaLink?: string | null;
}

/** The time of a version in the interface language (UTC, so that the server's and the browser's render agree). */
export function useVersionTime() {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, {
    year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit", timeZone: "UTC", timeZoneName: "short",
  });
  return (value: Date | string) => format.format(new Date(value));
}

/** Who saved a version: the user's name, or that no user did (an API client's save, or an account since deleted). */
export function useAuthorName() {
  const { t } = useTranslation();
  return (entry: Pick<HistoryEntry, "authorName">) => entry.authorName ?? t("history.apiClient");
}

export function HistoryList({ bucketSlug, history, currentVersionId, schemaLink }: HistoryListProps) {
  const { t } = useTranslation();
  const time = useVersionTime();
  const author = useAuthorName();
  const paths = historyPaths(bucketSlug, history.contentId);
  const { entries } = history;
  // Defaults: the newest version against the one before it (on later pages: the first two shown).
  const defaultA = entries[1]?.versionId ?? entries[0]?.versionId;
  const defaultB = entries[0]?.versionId;
  const restoreForm = `history-restore-${history.contentId}`;
  return (
    <div className="history-list">
      {/* The restore buttons of the rows belong to this form (form attribute): forms cannot nest in the compare form. */}
      <Form method="post" action={paths.restoreAction} id={restoreForm} className="history-restore-form">
        <input type="hidden" name="base" value={history.latestVersionId} />
      </Form>
      {currentVersionId && currentVersionId !== history.latestVersionId ? <p className="notice-warning history-hint">{t("history.restoreHint")}</p> : null}
      {history.total > 1 ? <p className="muted history-hint">{t("history.chooseHint")}</p> : null}
      <Form method="get" action={paths.compareAction} className="history-compare-form">
        <ol className="history-entries">
          {entries.map((entry) => {
            const label = t("history.version", { number: entry.number });
            return (
              <li key={entry.versionId} className={`history-entry${entry.versionId === currentVersionId ? " current" : ""}`} data-version={entry.versionId}>
                <span className="history-choose">
                  <input type="radio" name="a" value={entry.versionId} defaultChecked={entry.versionId === defaultA} aria-label={t("history.compareFrom", { number: entry.number })} />
                  <input type="radio" name="b" value={entry.versionId} defaultChecked={entry.versionId === defaultB} aria-label={t("history.compareTo", { number: entry.number })} />
                </span>
                <span className="history-what">
                  <Link to={paths.version(entry)} className="history-open" aria-current={entry.versionId === currentVersionId ? "page" : undefined}>
                    {label}
                  </Link>
                  {entry.latest ? <span className="history-badge">{t("history.latest")}</span> : null}
                  <span className="history-meta">
                    <time dateTime={new Date(entry.createdAt).toISOString()}>{time(entry.createdAt)}</time>
                    {" · "}
                    <span className="history-author">{author(entry)}</span>
                    {entry.schemaVersion !== null ? (
                      <>
                        {" · "}
                        {schemaLink ? (
                          <a href={schemaLink}>{t("history.schemaVersion", { number: entry.schemaVersion })}</a>
                        ) : (
                          <span>{t("history.schemaVersion", { number: entry.schemaVersion })}</span>
                        )}
                      </>
                    ) : null}
                  </span>
                </span>
                {entry.latest ? null : (
                  <button type="submit" form={restoreForm} name="versionId" value={entry.versionId} className="button small history-restore" aria-label={t("history.restoreVersion", { number: entry.number })}>
                    {t("history.restore")}
                  </button>
                )}
              </li>
            );
          })}
        </ol>
        {history.total > 1 ? (
          <button type="submit" className="button history-compare">{t("history.compare")}</button>
        ) : (
          <p className="muted">{t("history.onlyOne")}</p>
        )}
      </Form>
      {history.pages > 1 ? (
        <nav className="pagination" aria-label={t("history.pages")}>
          {history.page > 1 ? <Link to={paths.history(history.page - 1)} rel="prev">{t("history.newer")}</Link> : null}
          <span>{t("history.pageOf", { page: history.page, pages: history.pages })}</span>
          {history.page < history.pages ? <Link to={paths.history(history.page + 1)} rel="next">{t("history.older")}</Link> : null}
        </nav>
      ) : null}
    </div>
  );
}
