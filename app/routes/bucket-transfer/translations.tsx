import type { RouteHandle } from "@core/route-handle";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { bucketName } from "@core/content/bucket-name";
import { overviewPath } from "@core/content/screens";
import { translate, translateMessage } from "@core/messages";
import type { Locale } from "@core/locales";
import type { Bucket } from "@server/content/buckets";
import type { User } from "@server/accounts/users";
import { applyTranslations } from "@server/content/translation-apply";
import { translationLanguages } from "@server/content/translation-export";
import { checkTranslations } from "@server/content/translation-import";
import { parseXliff, XliffError } from "@server/content/xliff-parse";
import { errorText, HttpError } from "@server/errors";
import { requireBucketAccess } from "@server/web/guards";
import { incomingBody, isMultipart } from "@server/web/form-post";
import { formText, readForm } from "@server/web/read-form";
import { getRequestState } from "@server/web/request-state";
import { pageRoute } from "@server/web/respond";
import { ProblemTable, TranslationCheckReport } from "~/components/translations-report";
import { pageTitle } from "~/lib/page-title";
import { checkView, problemViews } from "./translations-check.server";
import { keepTranslationFile, keptTranslationFile, receiveTranslationUpload, removeTranslationFile } from "./translations.server";
import type { Route } from "./+types/translations";
import { FileField } from "~/components/file-field";

export const handle = { messages: ["pages"], streamsBody: true } satisfies RouteHandle;

/*
 * /b/{bucket}/translations (issue 34, docs/transfer.md "Translations"): the XLIFF download for a language (a GET form
 * to translations/export, with the overview's selection passed on), the upload of a translated file (checked at once
 * and kept: ?file={id} shows the check), and the post that fills its texts. Plain forms, so it works without
 * JavaScript.
 */

async function translationsTarget(args: Route.LoaderArgs | Route.ActionArgs) {
  const { user, bucket } = await requireBucketAccess(args.request, args.context, args.params.bucket);
  const state = await getRequestState(args.request, args.context);
  return { user, bucket, locale: state.locale, buckets: state.buckets };
}

const pagePath = (bucket: Pick<Bucket, "slug">) => `/b/${encodeURIComponent(bucket.slug)}/translations`;

export const loader = pageRoute(async (args: Route.LoaderArgs) => {
  const { user, bucket, locale, buckets } = await translationsTarget(args);
  const url = new URL(args.request.url);
  const name = bucketName(bucket, locale);
  // The first locale is usually the one texts are written in: the others first, as what is usually asked for.
  const targets = [...bucket.locales.slice(1), ...bucket.locales.slice(0, 1)].flatMap((target) => {
    const languages = translationLanguages(bucket, target);
    return languages ? [languages] : [];
  });
  const nothing = url.searchParams.get("nothing");
  const fileId = url.searchParams.get("file");
  const kept = fileId ? await keptTranslationFile(args.context, { bucket, user }, fileId) : null;
  let check = null;
  let refusal = null;
  if (kept) {
    try {
      const parsed = parseXliff(kept.bytes);
      check = checkView(bucket, kept, await checkTranslations(args.context.db, bucket, parsed, kept.target, locale, buckets), locale);
    } catch (error) {
      if (!(error instanceof XliffError)) throw error;
      refusal = translateMessage(locale, error.reason);
    }
  }
  return {
    title: translate(locale, "translations.title", { bucket: name }),
    bucket: { name, overview: overviewPath(bucket), exportPath: `${pagePath(bucket)}/export` },
    targets,
    selection: {
      q: url.searchParams.get("q") ?? "",
      state: url.searchParams.get("state") ?? "",
      missing: bucket.locales.find((candidate) => candidate === url.searchParams.get("missing")) ?? "",
      ids: url.searchParams.getAll("id"),
    },
    nothing: nothing && bucket.locales.includes(nothing) ? nothing : null,
    check,
    refusal,
    fileGone: Boolean(fileId) && !kept,
  };
});

async function upload(
  args: Route.ActionArgs,
  target: { user: User; bucket: Bucket; locale: Locale; buckets: Parameters<typeof checkTranslations>[5] },
) {
  const { user, bucket, locale, buckets } = target;
  const received = await receiveTranslationUpload(incomingBody(args.request), args.context.media.storage);
  if (!translationLanguages(bucket, received.locale)) throw new HttpError(400, "translations.badLocale");
  await checkTranslations(args.context.db, bucket, parseXliff(received.bytes), received.locale, locale, buckets);
  const id = await keepTranslationFile(args.context, { bucket, user }, { ...received, target: received.locale });
  return redirect(`${pagePath(bucket)}?file=${id}`);
}

export const action = pageRoute(async (args: Route.ActionArgs) => {
  const target = await translationsTarget(args);
  const { user, bucket, locale } = target;
  try {
    if (isMultipart(args.request)) throw await upload(args, target);
    const form = await readForm(args.request);
    if (formText(form, "intent") !== "apply") throw new HttpError(400, "errors.badRequest");
    const kept = await keptTranslationFile(args.context, { bucket, user }, formText(form, "file"));
    if (!kept) return data({ refusal: translate(locale, "translations.fileGone") }, { status: 409 });
    const outcome = await applyTranslations(
      args.context,
      { actor: user, bucket, locale, askedTarget: kept.target, buckets: target.buckets },
      parseXliff(kept.bytes),
    );
    if (!outcome.check.blocked) await removeTranslationFile(args.context, { bucket, user }, kept.id);
    return {
      outcome: {
        filled: outcome.filled,
        documents: outcome.documents,
        blocked: outcome.check.blocked,
        problems: problemViews(bucket, outcome.problems, locale),
        problemCount: outcome.problems.length,
      },
    };
  } catch (error) {
    if (error instanceof XliffError) return data({ refusal: translateMessage(locale, error.reason) }, { status: 422 });
    if (error instanceof HttpError) return data({ refusal: errorText(error, locale) }, { status: error.status });
    throw error;
  }
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

type LoaderData = Route.ComponentProps["loaderData"];

export default function TranslationsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const outcome = actionData && "outcome" in actionData ? actionData.outcome : null;
  const refusal = (actionData && "refusal" in actionData ? actionData.refusal : null) ?? loaderData.refusal;
  return (
    <section className="import-page translations-page">
      <h1>{loaderData.title}</h1>
      <p>{t("translations.intro")}</p>
      {refusal ? (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      ) : null}
      {outcome ? (
        <section aria-labelledby="translation-outcome">
          <p id="translation-outcome" role="status" className={outcome.blocked ? "form-error" : undefined}>
            {outcome.blocked ? t("translations.blocked") : t("translations.done", { filled: outcome.filled, documents: outcome.documents })}
          </p>
          <ProblemTable problems={outcome.problems} count={outcome.problemCount} />
        </section>
      ) : loaderData.check ? (
        <TranslationCheckReport check={loaderData.check} />
      ) : loaderData.fileGone ? (
        <p className="notice-warning">{t("translations.fileGone")}</p>
      ) : null}
      {loaderData.targets.length ? (
        <>
          <ExportForm data={loaderData} />
          <UploadForm data={loaderData} />
        </>
      ) : (
        <p>{t("translations.noLocales")}</p>
      )}
      <p className="import-links">
        <Link to={loaderData.bucket.overview}>{t("transfer.backToOverview", { bucket: loaderData.bucket.name })}</Link>
      </p>
    </section>
  );
}

function TargetSelect({ id, targets, chosen = "" }: { id: string; targets: LoaderData["targets"]; chosen?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <label htmlFor={id}>{t("translations.target")}</label>
      <select id={id} name="locale" defaultValue={targets.some(({ target }) => target === chosen) ? chosen : undefined}>
        {targets.map(({ source, target }) => (
          <option key={target} value={target}>
            {t("translations.localeOption", { target: target.toUpperCase(), source: source.toUpperCase() })}
          </option>
        ))}
      </select>
    </>
  );
}

function ExportForm({ data: loaderData }: { data: LoaderData }) {
  const { t } = useTranslation();
  const { selection } = loaderData;
  return (
    <section aria-labelledby="translation-export">
      <h2 id="translation-export">{t("translations.exportHeading")}</h2>
      <p className="hint">{t("translations.exportHint")}</p>
      {loaderData.nothing ? (
        <p className="notice-warning" role="alert">
          {t("translations.nothing", { locale: loaderData.nothing.toUpperCase() })}
        </p>
      ) : null}
      <p>
        {selection.ids.length
          ? t("translations.exportChosen", { count: selection.ids.length })
          : selection.q || selection.state || selection.missing
            ? t("translations.exportMatches")
            : t("translations.exportAll")}
      </p>
      {/* A download, not a page: a plain GET form, with or without JavaScript. */}
      <form method="get" action={loaderData.bucket.exportPath} className="import-upload">
        <TargetSelect id="translation-export-locale" targets={loaderData.targets} chosen={selection.missing} />
        {selection.q ? <input type="hidden" name="q" value={selection.q} /> : null}
        {selection.state ? <input type="hidden" name="state" value={selection.state} /> : null}
        {selection.missing ? <input type="hidden" name="missing" value={selection.missing} /> : null}
        {selection.ids.map((id) => (
          <input key={id} type="hidden" name="id" value={id} />
        ))}
        <div className="button-row">
          <button type="submit" className="button">
            {t("translations.download")}
          </button>
        </div>
      </form>
    </section>
  );
}

function UploadForm({ data: loaderData }: { data: LoaderData }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="translation-import">
      <h2 id="translation-import">{loaderData.check ? t("translations.another") : t("translations.importHeading")}</h2>
      <Form method="post" encType="multipart/form-data" className="import-upload">
        <TargetSelect id="translation-import-locale" targets={loaderData.targets} />
        <FileField
          id="translation-file"
          name="file"
          label={t("translations.file")}
          accept=".xlf,.xliff,application/xliff+xml"
          hint={t("translations.fileHint")}
          required
        />
        <div className="button-row">
          <button type="submit" className="button primary">
            {t("translations.check")}
          </button>
        </div>
      </Form>
    </section>
  );
}
