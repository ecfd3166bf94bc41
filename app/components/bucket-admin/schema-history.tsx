import { useTranslation } from "react-i18next";
import { dateTimeFormat } from "@core/date-formats";
import { Form } from "react-router";

/*
 * A bucket's schema history on its settings page: every version of the schema (who, when), and a GET form comparing
 * two of them as a line diff. Anchored at #schema-history-title (the version history links here for admins).
 */

export interface SchemaHistoryEntry {
  id: string;
  number: number;
  createdByName: string | null;
  createdAt: string;
}

/** Two versions compared: their numbers and the line diff of their pretty-printed schemas. */
export interface SchemaVersionsDiff {
  from: number;
  to: number;
  lines: ReadonlyArray<{ kind: "same" | "added" | "removed"; text: string }>;
}

export function SchemaHistory({ history, diff }: { history: readonly SchemaHistoryEntry[]; diff: SchemaVersionsDiff | null }) {
  const { t, i18n } = useTranslation();
  const format = dateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
  const newest = history[0]?.number ?? 1;
  return (
    <section className="schema-history" aria-labelledby="schema-history-title">
      <h2 id="schema-history-title">{t("adminBuckets.history.title")}</h2>
      <table className="content-table admin-table">
        <thead>
          <tr>
            <th scope="col">{t("adminBuckets.history.number")}</th>
            <th scope="col">{t("adminBuckets.history.who")}</th>
            <th scope="col">{t("adminBuckets.history.when")}</th>
          </tr>
        </thead>
        <tbody>
          {history.map((version) => (
            <tr key={version.id}>
              <td>{version.number}</td>
              <td>{version.createdByName ?? t("adminBuckets.history.unknownAuthor")}</td>
              <td>
                <time dateTime={version.createdAt}>{format.format(new Date(version.createdAt))}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {history.length > 1 ? (
        <Form method="get" className="diff-form">
          <VersionSelect
            name="from"
            label={t("adminBuckets.history.from")}
            history={history}
            chosen={diff?.from ?? Math.max(newest - 1, 1)}
          />
          <VersionSelect name="to" label={t("adminBuckets.history.to")} history={history} chosen={diff?.to ?? newest} />
          <button type="submit" className="button">
            {t("adminBuckets.history.compare")}
          </button>
        </Form>
      ) : null}
      {diff ? (
        <figure className="schema-diff">
          <figcaption>{t("adminBuckets.history.diffCaption", { from: diff.from, to: diff.to })}</figcaption>
          {diff.lines.every((line) => line.kind === "same") ? <p className="muted">{t("adminBuckets.history.noDifference")}</p> : null}
          <pre>
            {diff.lines.map((line, index) => (
              <span key={index} className={`diff-line diff-${line.kind}`}>
                {line.kind === "added" ? "+ " : line.kind === "removed" ? "- " : "  "}
                {line.text}
                {"\n"}
              </span>
            ))}
          </pre>
        </figure>
      ) : null}
    </section>
  );
}

/** One end of the comparison: a schema version by its number. */
function VersionSelect(props: { name: string; label: string; history: readonly SchemaHistoryEntry[]; chosen: number }) {
  return (
    <label>
      {props.label}{" "}
      <select name={props.name} defaultValue={String(props.chosen)}>
        {props.history.map((version) => (
          <option key={version.id} value={version.number}>
            {version.number}
          </option>
        ))}
      </select>
    </label>
  );
}
