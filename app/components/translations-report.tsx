import { useTranslation } from "react-i18next";
import { Form } from "react-router";

/* The translations page's check of an uploaded XLIFF file and its outcome (issue 34): texts to fill and problems. */

export interface ProblemView {
  title: string;
  field: string;
  message: string;
  /** A changed source: it refuses the whole file. */
  blocking: boolean;
  href: string | null;
}

export interface FillView {
  title: string;
  field: string;
  text: string;
  href: string;
}

export interface TranslationCheckView {
  fileId: string;
  fileName: string;
  source: string;
  target: string;
  fillCount: number;
  documentCount: number;
  unchanged: number;
  untranslated: number;
  fills: FillView[];
  problems: ProblemView[];
  problemCount: number;
  blocked: boolean;
}

function DocumentCell({ title, href }: { title: string; href: string | null }) {
  const { t } = useTranslation();
  return <td>{href ? <a href={href}>{title || t("overview.untitled")}</a> : <code>{title}</code>}</td>;
}

export function ProblemTable({ problems, count }: { problems: readonly ProblemView[]; count: number }) {
  const { t } = useTranslation();
  if (!problems.length) return null;
  return (
    <>
      <table className="content-table translation-problems">
        <caption>{t("translations.problemsHeading", { count })}</caption>
        <thead>
          <tr>
            <th scope="col">{t("translations.document")}</th>
            <th scope="col">{t("translations.field")}</th>
            <th scope="col">{t("translations.problem")}</th>
          </tr>
        </thead>
        <tbody>
          {problems.map((problem, index) => (
            <tr key={index} data-blocking={problem.blocking ? "true" : undefined}>
              <DocumentCell title={problem.title} href={problem.href} />
              <td>{problem.field || "—"}</td>
              <td>{problem.blocking ? <strong>{problem.message}</strong> : problem.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {count > problems.length ? <p className="muted">{t("translations.more", { count: count - problems.length })}</p> : null}
    </>
  );
}

function FillTable({ check }: { check: TranslationCheckView }) {
  const { t } = useTranslation();
  if (!check.fills.length) return null;
  return (
    <>
      <table className="content-table translation-fills">
        <caption>{t("translations.fillsHeading")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("translations.document")}</th>
            <th scope="col">{t("translations.field")}</th>
            <th scope="col">{t("translations.text")}</th>
          </tr>
        </thead>
        <tbody>
          {check.fills.map((fill, index) => (
            <tr key={index}>
              <DocumentCell title={fill.title} href={fill.href} />
              <td>{fill.field}</td>
              <td lang={check.target}>{fill.text}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {check.fillCount > check.fills.length ? (
        <p className="muted">{t("translations.more", { count: check.fillCount - check.fills.length })}</p>
      ) : null}
    </>
  );
}

/** The check, and the button that fills its texts (a plain form post) unless a changed source refuses the file. */
export function TranslationCheckReport({ check }: { check: TranslationCheckView }) {
  const { t } = useTranslation();
  return (
    <section className="translation-check" aria-labelledby="translation-check-heading">
      <h2 id="translation-check-heading">
        {t("translations.checkHeading", { file: check.fileName, source: check.source.toUpperCase(), target: check.target.toUpperCase() })}
      </h2>
      {check.blocked ? (
        <p className="form-error" role="alert">
          {t("translations.blocked")}
        </p>
      ) : (
        <p role="status">
          {t("translations.summary", {
            fills: check.fillCount,
            documents: check.documentCount,
            unchanged: check.unchanged,
            untranslated: check.untranslated,
          })}
        </p>
      )}
      <ProblemTable problems={check.problems} count={check.problemCount} />
      {check.blocked ? null : (
        <>
          <FillTable check={check} />
          {check.fillCount && check.problemCount ? <p className="hint">{t("translations.someProblems")}</p> : null}
          {check.fillCount ? (
            <Form method="post" className="button-row">
              <input type="hidden" name="intent" value="apply" />
              <input type="hidden" name="file" value={check.fileId} />
              <button type="submit" className="button primary">
                {t("translations.apply", { count: check.fillCount })}
              </button>
            </Form>
          ) : null}
        </>
      )}
    </section>
  );
}
