import type { RouteHandle } from "@core/route-handle";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, redirect, useRevalidator } from "react-router";
import { bucketName } from "@core/content/bucket-name";
import { overviewPath } from "@core/content/screens";
import { translate } from "@core/messages";
import { countProblems } from "@server/content/import-problems";
import { HttpError } from "@server/errors";
import { getRequestState } from "@server/web/request-state";
import { formText, readForm } from "@server/web/read-form";
import { pageRoute } from "@server/web/respond";
import { pageTitle } from "~/lib/page-title";
import { fileHeaders, fileKept, keyCandidates, mappingTargets, namingColumns, requireRun, startRun } from "./import.server";
import type { Route } from "./+types/import-run";

export const handle = { messages: ["pages"] } satisfies RouteHandle;

/*
 * /b/{bucket}/import/{run}: an import's run (issue 34). While it runs, how far it is (the page reloads itself, with
 * or without JavaScript); a dry run's report (counts, the first problems by row and field), the CSV's mapping and
 * the external key, "Check again" and "Import"; an import's outcome.
 */

/** How often the page looks again while the run goes on. */
const REFRESH_SECONDS = 2;

export const loader = pageRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const { bucket, run } = await requireRun(request, context, params);
  const { locale } = await getRequestState(request, context);
  const name = bucketName(bucket, locale);
  const expected = run.options.expectedRows ?? null;
  return {
    title: translate(locale, run.dryRun ? "transfer.checkTitle" : "transfer.runTitle", { file: run.fileName }),
    bucket: { name, overview: overviewPath(bucket), importPath: `/b/${encodeURIComponent(bucket.slug)}/import` },
    run: {
      dryRun: run.dryRun,
      status: run.status,
      format: run.format,
      rowsDone: run.rowsDone,
      expected,
      created: run.created,
      updated: run.updated,
      unchanged: run.unchanged,
      refused: run.refused,
      problems: run.problems,
      failure: run.failure,
      problemCount: run.refused ? await countProblems(context.db, run.id) : 0,
      problemsPath: `/b/${encodeURIComponent(bucket.slug)}/import/${run.id}/problems`,
      mediaName: run.mediaName,
      mapping: run.options.mapping,
      key: run.options.key,
    },
    // A checked file can be imported while it is kept (an import of it removes it when done).
    importable: run.dryRun && run.status === "done" && (await fileKept(run)),
    headers: run.dryRun && run.status === "done" ? await fileHeaders(run) : [],
    targets: mappingTargets(bucket),
    keys: keyCandidates(bucket),
    naming: namingColumns(bucket),
  };
});

export const action = pageRoute(async ({ request, context, params }: Route.ActionArgs) => {
  const { user, bucket, run } = await requireRun(request, context, params);
  const { locale } = await getRequestState(request, context);
  if (!run.dryRun || run.status !== "done") throw new HttpError(409, "transfer.notChecked");
  if (!(await fileKept(run))) throw new HttpError(409, "transfer.fileGone");
  const form = await readForm(request);
  const targets = new Set(["", ...mappingTargets(bucket)]);
  const mapping: Record<string, string> = {};
  for (const header of await fileHeaders(run)) {
    const target = formText(form, `map.${header}`);
    if (!targets.has(target)) throw new HttpError(400, "errors.badRequest");
    mapping[header] = target;
  }
  const key = formText(form, "key");
  if (key && !keyCandidates(bucket).includes(key)) throw new HttpError(400, "errors.badRequest");
  const importing = formText(form, "intent") === "import";
  const next = await startRun(context, {
    bucket,
    user,
    dryRun: !importing,
    format: run.format,
    filePath: run.filePath,
    fileName: run.fileName,
    media: run.mediaPath && run.mediaName ? { path: run.mediaPath, name: run.mediaName } : null,
    settings: { mapping, key: key || null, locale, ...(importing ? { expectedRows: run.rowsDone } : {}) },
  });
  throw redirect(`/b/${encodeURIComponent(bucket.slug)}/import/${next.id}`);
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [
  ...pageTitle(matches, loaderData.title),
  ...(loaderData.run.status === "running" ? [{ httpEquiv: "refresh", content: String(REFRESH_SECONDS) } as const] : []),
];

export default function ImportRunPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { run, bucket } = loaderData;
  const revalidator = useRevalidator();
  useEffect(() => {
    if (run.status !== "running") return;
    const timer = setInterval(() => void revalidator.revalidate(), REFRESH_SECONDS * 1000);
    return () => clearInterval(timer);
  }, [run.status, revalidator]);
  return (
    <section className="import-page">
      <h1>{loaderData.title}</h1>
      {run.status === "running" ? (
        <div role="status" className="import-progress">
          <p>{t(run.dryRun ? "transfer.checking" : "transfer.importing", { count: run.rowsDone })}</p>
          <progress value={run.expected ? run.rowsDone : undefined} max={run.expected ?? undefined} aria-label={t("transfer.progress")} />
        </div>
      ) : (
        <ImportReport run={run} />
      )}
      {loaderData.importable ? (
        <MappingForm
          run={run}
          headers={loaderData.headers}
          targets={loaderData.targets}
          keys={loaderData.keys}
          naming={loaderData.naming}
        />
      ) : run.dryRun && run.status === "done" ? (
        <p className="notice-warning">{t("transfer.fileGone")}</p>
      ) : null}
      <p className="import-links">
        {run.status !== "running" && !run.dryRun ? (
          <Link to={bucket.overview} className="button primary">
            {t("transfer.backToOverview", { bucket: bucket.name })}
          </Link>
        ) : (
          <Link to={bucket.overview}>{t("transfer.backToOverview", { bucket: bucket.name })}</Link>
        )}
        <Link to={bucket.importPath}>{t("transfer.another")}</Link>
      </p>
    </section>
  );
}

type RunData = Route.ComponentProps["loaderData"]["run"];

function ImportReport({ run }: { run: RunData }) {
  const { t } = useTranslation();
  return (
    <>
      {run.failure ? (
        <p className="form-error" role="alert">
          {run.failure.row === null ? run.failure.message : t("transfer.failedAt", { row: run.failure.row, message: run.failure.message })}
        </p>
      ) : null}
      {run.mediaName ? <p>{t("transfer.withZip", { file: run.mediaName })}</p> : null}
      <p role="status">
        {t(run.dryRun ? "transfer.checkedSummary" : "transfer.importedSummary", {
          rows: run.rowsDone,
          created: run.created,
          updated: run.updated,
          unchanged: run.unchanged,
          refused: run.refused,
        })}
      </p>
      {run.problems.length ? (
        <table className="content-table import-problems">
          <caption>{t("transfer.problems", { shown: run.problems.length, refused: run.refused })}</caption>
          <thead>
            <tr>
              <th scope="col">{t("transfer.row")}</th>
              <th scope="col">{t("transfer.field")}</th>
              <th scope="col">{t("transfer.message")}</th>
            </tr>
          </thead>
          <tbody>
            {run.problems.map((problem, index) => (
              <tr key={index}>
                <td>{problem.row}</td>
                <td>
                  <code>{problem.field || "—"}</code>
                </td>
                <td>{problem.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {run.problemCount ? (
        <p>
          <a href={run.problemsPath} download>
            {t("transfer.downloadProblems", { count: run.problemCount })}
          </a>
        </p>
      ) : null}
    </>
  );
}

function MappingForm({
  run,
  headers,
  targets,
  keys,
  naming,
}: {
  run: RunData;
  headers: string[];
  targets: string[];
  keys: string[];
  naming: { media: string[]; references: string[] };
}) {
  const { t } = useTranslation();
  const toImport = run.created + run.updated;
  return (
    <Form method="post" className="import-mapping">
      {headers.length ? (
        <fieldset>
          <legend>{t("transfer.mapping")}</legend>
          <p className="hint">{t("transfer.mappingHint")}</p>
          {naming.media.length ? <p className="hint">{t("transfer.mediaColumns", { columns: naming.media.join(", ") })}</p> : null}
          {naming.references.length ? (
            <p className="hint">{t("transfer.referenceColumns", { columns: naming.references.join(", ") })}</p>
          ) : null}
          {headers.map((header, index) => {
            const chosen = run.mapping[header] ?? (targets.includes(header) ? header : "");
            return (
              <div className="import-mapping-row" key={header}>
                <label htmlFor={`map-${index}`}>{header}</label>
                <select id={`map-${index}`} name={`map.${header}`} defaultValue={chosen}>
                  <option value="">{t("transfer.skipColumn")}</option>
                  {targets.map((target) => (
                    <option key={target} value={target}>
                      {target}
                    </option>
                  ))}
                </select>
              </div>
            );
          })}
        </fieldset>
      ) : null}
      <div className="import-mapping-row">
        <label htmlFor="import-key">{t("transfer.key")}</label>
        <select id="import-key" name="key" defaultValue={run.key ?? ""} aria-describedby="import-key-hint">
          <option value="">{t("transfer.noKey")}</option>
          {keys.map((key) => (
            <option key={key} value={key}>
              {key}
            </option>
          ))}
        </select>
      </div>
      <p className="hint" id="import-key-hint">
        {t("transfer.keyHint")}
      </p>
      <div className="button-row">
        <button type="submit" name="intent" value="import" className="button primary" disabled={toImport === 0}>
          {t("transfer.import", { count: toImport })}
        </button>
        <button type="submit" name="intent" value="check" className="button">
          {t("transfer.checkAgain")}
        </button>
      </div>
    </Form>
  );
}
