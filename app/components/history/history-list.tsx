import { useTranslation } from "react-i18next";
import { Form, Link, useFetcher } from "react-router";
import { historyPaths, type HistoryPage, type VersionComparison } from "@core/content/history";
import { useAuthorName, useVersionTime } from "./format";
import { VersionCompare } from "./version-compare";
import { Pagination } from "~/components/list-tools";
import "~/components/publishing/publishing-messages";
import "~/components/history/history-messages";

/*
 * A document's versions, newest first, a page at a time, server-rendered: each links to its page, says when, by
 * whom and with which schema version it was saved, and (but the latest) offers 'Restore', a POST form; two radio
 * columns choose the versions the GET form 'Compare' compares. The published version is marked; a user who may
 * publish gets 'Publish' on the others (the publish page's confirmation) and 'Changes since published' compares the
 * published version with the newest. All of it works without JavaScript.
 */

export interface HistoryListProps {
  bucketSlug: string;
  history: HistoryPage;
  /** The version the page shows (marked in the list). */
  currentVersionId?: string | null;
  /** Admins see the schema version as a link to the bucket's schema history. */
  schemaLink?: string | null;
  /**
   * With JavaScript, 'Compare' shows the comparison below the list instead of opening the compare page (the
   * form is a fetcher's: without JavaScript it is the same GET form and opens the page).
   */
  inline?: boolean;
  /** The user may publish (docs/publishing.md): each version but the published one offers 'Publish'. */
  canPublish?: boolean;
}

/** The compare form's two sides, each a radio button per version: `a` the version compared from, `b` the one compared to. */
const COMPARE_SIDES = [
  { name: "a", label: "history.compareFrom" },
  { name: "b", label: "history.compareTo" },
] as const;

export function HistoryList({ bucketSlug, history, currentVersionId, schemaLink, inline, canPublish }: HistoryListProps) {
  const { t } = useTranslation();
  const fetcher = useFetcher<{ comparison: VersionComparison }>();
  const CompareForm = inline ? fetcher.Form : Form;
  const time = useVersionTime();
  const author = useAuthorName();
  const paths = historyPaths(bucketSlug, history.contentId);
  const { entries } = history;
  // Defaults: the newest version against the one before it (on later pages: the first two shown).
  const checked = { a: entries[1]?.versionId ?? entries[0]?.versionId, b: entries[0]?.versionId };
  const restoreForm = `history-restore-${history.contentId}`;
  return (
    <div className="history-list">
      {/* The restore buttons of the rows belong to this form (form attribute): forms cannot nest in the compare form. */}
      <Form method="post" action={paths.restoreAction} id={restoreForm} className="history-restore-form">
        <input type="hidden" name="base" value={history.latestVersionId} />
      </Form>
      {currentVersionId && currentVersionId !== history.latestVersionId ? (
        <p className="notice-warning history-hint">{t("history.restoreHint")}</p>
      ) : null}
      {history.total > 1 ? <p className="muted history-hint">{t("history.chooseHint")}</p> : null}
      {history.publishedVersionId && history.publishedVersionId !== history.latestVersionId ? (
        <p className="history-hint">
          <Link to={paths.compare(history.publishedVersionId, history.latestVersionId)}>{t("publishing.sincePublished")}</Link>
        </p>
      ) : null}
      <CompareForm method="get" action={paths.compareAction} className="history-compare-form">
        <ol className="history-entries">
          {entries.map((entry) => {
            const label = t("history.version", { number: entry.number });
            return (
              <li
                key={entry.versionId}
                className={`history-entry${entry.versionId === currentVersionId ? " current" : ""}`}
                data-version={entry.versionId}
              >
                <span className="history-choose">
                  {COMPARE_SIDES.map((side) => (
                    <input
                      key={side.name}
                      type="radio"
                      name={side.name}
                      value={entry.versionId}
                      defaultChecked={entry.versionId === checked[side.name]}
                      aria-label={t(side.label, { number: entry.number })}
                    />
                  ))}
                </span>
                <span className="history-what">
                  <Link
                    to={paths.version(entry)}
                    className="history-open"
                    aria-current={entry.versionId === currentVersionId ? "page" : undefined}
                  >
                    {label}
                  </Link>
                  {entry.latest ? <span className="history-badge">{t("history.latest")}</span> : null}
                  {entry.merged ? (
                    <span className="history-badge" title={t("merge.badgeHint")}>
                      {t("merge.badge")}
                    </span>
                  ) : null}
                  {entry.versionId === history.publishedVersionId ? (
                    <span className="history-badge history-published">{t("publishing.versionPublished")}</span>
                  ) : null}
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
                {canPublish && entry.versionId !== history.publishedVersionId ? (
                  <Link
                    to={`/b/${bucketSlug}/${history.contentId}/publish?versionId=${entry.versionId}`}
                    className="button small history-publish"
                    aria-label={t("publishing.publishVersion", { number: entry.number })}
                  >
                    {t("publishing.publish")}
                  </Link>
                ) : null}
                {entry.latest ? null : (
                  <button
                    type="submit"
                    form={restoreForm}
                    name="versionId"
                    value={entry.versionId}
                    className="button small history-restore"
                    aria-label={t("history.restoreVersion", { number: entry.number })}
                  >
                    {t("history.restore")}
                  </button>
                )}
              </li>
            );
          })}
        </ol>
        {history.total > 1 ? (
          <button type="submit" className="button history-compare">
            {t("history.compare")}
          </button>
        ) : (
          <p className="muted">{t("history.onlyOne")}</p>
        )}
      </CompareForm>
      {inline && fetcher.data ? (
        <section
          className="history-inline-compare"
          aria-live="polite"
          aria-label={t("history.compareTitle", { from: fetcher.data.comparison.before.number, to: fetcher.data.comparison.after.number })}
        >
          <h3>{t("history.compareTitle", { from: fetcher.data.comparison.before.number, to: fetcher.data.comparison.after.number })}</h3>
          <p>
            <Link to={paths.compare(fetcher.data.comparison.before.versionId, fetcher.data.comparison.after.versionId)}>
              {t("history.openComparison")}
            </Link>
          </p>
          <VersionCompare comparison={fetcher.data.comparison} versionPath={paths.version} />
        </section>
      ) : null}
      {history.pages > 1 ? (
        <Pagination
          label={t("history.pages")}
          position={t("history.pageOf", { page: history.page, pages: history.pages })}
          previous={history.page > 1 ? { to: paths.history(history.page - 1), text: t("history.newer") } : null}
          next={history.page < history.pages ? { to: paths.history(history.page + 1), text: t("history.older") } : null}
        />
      ) : null}
    </div>
  );
}
