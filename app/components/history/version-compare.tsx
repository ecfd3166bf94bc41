import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { HistoryEntry, VersionComparison } from "@core/content/history";
import type { DiffLabel, DiffValue } from "@core/content/version-diff";
import { When } from "~/components/when";
import { useAuthorName, useVersionTime } from "./format";
import "~/components/history/history-messages";

/*
 * Two versions of a document side by side, field by field: each changed value's label is the way to it through the
 * field titles (a translated field's locale, a list's item number), media show as thumbnails, references by the
 * referenced document's title.
 */

export function labelText(labels: readonly DiffLabel[], item: (index: number) => string): string {
  return labels
    .map((label) => (label.kind === "item" ? item(label.index) : label.locale ? label.title.toUpperCase() : label.title))
    .join(" › ");
}

function Value({ value, comparison }: { value: DiffValue; comparison: VersionComparison }) {
  const { t } = useTranslation();
  switch (value.kind) {
    case "empty":
      return <span className="muted">{t("history.empty")}</span>;
    case "text":
      return <span className="diff-text">{value.text}</span>;
    case "boolean":
      return <span>{value.value ? t("history.yes") : t("history.no")}</span>;
    case "date":
      return <When iso={value.iso} dateOnly={value.dateOnly} />;
    case "media": {
      const media = comparison.media[value.contentId];
      if (!media) return <span className="muted">{t("history.mediaGone")}</span>;
      return (
        <span className="diff-media">
          {media.thumbnail ? <img src={media.thumbnail} alt={media.filename} className="diff-thumb" /> : null}
          <span className="diff-filename">{media.filename}</span>
        </span>
      );
    }
    case "reference": {
      const reference = comparison.references[value.contentId];
      if (!reference) return <span className="muted">{t("history.referenceGone")}</span>;
      return <Link to={reference.href}>{reference.title}</Link>;
    }
  }
}

function VersionHeading({ entry, versionPath }: { entry: HistoryEntry; versionPath: (entry: HistoryEntry) => string }) {
  const { t } = useTranslation();
  const time = useVersionTime();
  const author = useAuthorName();
  return (
    <>
      <Link to={versionPath(entry)}>{t("history.version", { number: entry.number })}</Link>{" "}
      <span className="history-meta">
        {time(entry.createdAt)} · {author(entry)}
      </span>
    </>
  );
}

export function VersionCompare({
  comparison,
  versionPath,
}: {
  comparison: VersionComparison;
  versionPath: (entry: HistoryEntry) => string;
}) {
  const { t } = useTranslation();
  const item = (index: number) => t("history.item", { number: index + 1 });
  const { before, after, rows } = comparison;
  return (
    <div className="version-compare">
      {rows.length === 0 ? (
        <p className="muted" role="status">
          {t("history.noDifference")}
        </p>
      ) : null}
      {/* On a narrow screen the table's head is hidden: the two versions are named here instead. */}
      <ul className="diff-versions">
        <li>
          <VersionHeading entry={before} versionPath={versionPath} />
        </li>
        <li>
          <VersionHeading entry={after} versionPath={versionPath} />
        </li>
      </ul>
      {rows.length ? (
        <table className="content-table diff-table">
          <caption className="visually-hidden">{t("history.compareCaption", { from: before.number, to: after.number })}</caption>
          <thead>
            <tr>
              <th scope="col">{t("history.field")}</th>
              <th scope="col">
                <VersionHeading entry={before} versionPath={versionPath} />
              </th>
              <th scope="col">
                <VersionHeading entry={after} versionPath={versionPath} />
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.name} className={`diff-row diff-${row.change}`} data-field={row.name}>
                <th scope="row">{labelText(row.labels, item)}</th>
                <td className="diff-before" data-label={t("history.version", { number: before.number })}>
                  <Value value={row.before} comparison={comparison} />
                </td>
                <td className="diff-after" data-label={t("history.version", { number: after.number })}>
                  <Value value={row.after} comparison={comparison} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
