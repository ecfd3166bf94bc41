import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { ImpactDocument, ImpactProgress, ImpactReport } from "@core/schema/impact";

/** The links to the first documents of a group or a property change, and how many more there are. */
function DocumentLinks({ documents, count }: { documents: ImpactDocument[]; count: number }) {
  const { t } = useTranslation();
  return (
    <ul className="impact-documents">
      {documents.map((document) => (
        <li key={document.contentId}>
          <Link to={document.href}>{document.title || t("schemaImpact.untitled", { id: document.contentId.slice(0, 8) })}</Link>
        </li>
      ))}
      {count > documents.length ? <li className="muted">{t("schemaImpact.moreDocuments", { count: count - documents.length })}</li> : null}
    </ul>
  );
}

/**
 * A property path as it is shown: monospace, or the words for the document as a whole. A long path wraps after its
 * separators (`.`, `/`, before `[`), never inside a name where it fits.
 */
function PropertyName({ property }: { property: string }) {
  const { t } = useTranslation();
  if (!property) return <span>{t("schemaImpact.wholeDocument")}</span>;
  const parts = property.split(/(?<=[./])|(?=\[)/);
  return (
    <code className="impact-property">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </code>
  );
}

/**
 * The impact of a proposed schema on a bucket's documents (server/content/schema-impact.ts): how many would no
 * longer validate, grouped by property and message, with links to the first documents of each group, and the
 * properties removed or renamed with how many documents hold a value there.
 */
export function SchemaImpactReport({ report, title }: { report: ImpactReport; title?: string }) {
  const { t } = useTranslation();
  const heading = title ?? t("schemaImpact.resultTitle");
  if (report.problems.length) {
    return (
      <section className="schema-impact" aria-labelledby="schema-impact-title">
        <h2 id="schema-impact-title">{heading}</h2>
        <div className="form-error" role="alert">
          <p>{t("schemaImpact.schemaProblems")}</p>
          <ul>
            {report.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      </section>
    );
  }
  const summary =
    report.checked === 0
      ? t("schemaImpact.noDocuments")
      : report.failing
        ? t("schemaImpact.summaryFailing", { failing: report.failing, checked: report.checked })
        : t("schemaImpact.summaryValid", { checked: report.checked });
  return (
    <section className="schema-impact" aria-labelledby="schema-impact-title">
      <h2 id="schema-impact-title">{heading}</h2>
      <p className={report.failing ? "notice-warning" : "notice-success"} role="status">
        <span data-testid="impact-summary">{summary}</span>
        {report.durationMs >= 100 ? (
          <span className="muted"> {t("schemaImpact.duration", { seconds: (report.durationMs / 1000).toFixed(1) })}</span>
        ) : null}
      </p>
      {report.groups.length ? (
        <>
          <h3>{t("schemaImpact.groupsTitle")}</h3>
          <table className="impact-table">
            <thead>
              <tr>
                <th scope="col">{t("schemaImpact.property")}</th>
                <th scope="col">{t("schemaImpact.message")}</th>
                <th scope="col" className="impact-count">
                  {t("schemaImpact.count")}
                </th>
                <th scope="col">{t("schemaImpact.firstDocuments")}</th>
              </tr>
            </thead>
            <tbody>
              {report.groups.map((group) => (
                <tr key={`${group.property}\u0000${group.message}`} className="impact-group">
                  <td data-label={t("schemaImpact.property")}>
                    <PropertyName property={group.property} />
                  </td>
                  <td data-label={t("schemaImpact.message")}>{group.message}</td>
                  <td data-label={t("schemaImpact.count")} className="impact-count">
                    {group.count}
                  </td>
                  <td data-label={t("schemaImpact.firstDocuments")}>
                    <DocumentLinks documents={group.documents} count={group.count} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      <h3>{t("schemaImpact.changesTitle")}</h3>
      {report.changes.length ? (
        <>
          <ul className="impact-changes">
            {report.changes.map((change) => (
              <li key={change.property} className="impact-change" data-kind={change.kind}>
                <p>
                  <PropertyName property={change.property} />{" "}
                  {change.kind === "renamed" ? t("schemaImpact.renamed", { renamedTo: change.renamedTo }) : t("schemaImpact.removed")}
                  {" · "}
                  {t("schemaImpact.holdValue", { count: change.count })}
                </p>
                {change.documents.length ? <DocumentLinks documents={change.documents} count={change.count} /> : null}
              </li>
            ))}
          </ul>
          {report.changes.some((change) => change.kind === "renamed") ? <p className="muted">{t("schemaImpact.renamedNote")}</p> : null}
        </>
      ) : (
        <p className="muted">{t("schemaImpact.noChanges")}</p>
      )}
      <p className="muted">{t("schemaImpact.unchanged")}</p>
    </section>
  );
}

/** The progress of a running impact preview (documents checked of the bucket's count). */
export function SchemaImpactProgress({ progress }: { progress: ImpactProgress | null }) {
  const { t } = useTranslation();
  return (
    <div className="impact-progress" role="status" aria-live="polite">
      <span>{t("schemaImpact.checking")}</span>
      <progress
        max={Math.max(progress?.total ?? 0, 1)}
        value={progress ? progress.checked : undefined}
        aria-label={t("schemaImpact.checking")}
      />
      {progress ? <span className="muted">{t("schemaImpact.progress", { checked: progress.checked, total: progress.total })}</span> : null}
    </div>
  );
}
