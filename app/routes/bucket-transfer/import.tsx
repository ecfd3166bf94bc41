import type { RouteHandle } from "@core/route-handle";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { bucketName } from "@core/content/bucket-name";
import { overviewPath } from "@core/content/screens";
import { translate } from "@core/messages";
import { errorText, HttpError } from "@server/errors";
import { requireBucketAccess } from "@server/web/guards";
import { incomingBody, isMultipart } from "@server/web/form-post";
import { getRequestState } from "@server/web/request-state";
import { pageRoute } from "@server/web/respond";
import { pageTitle } from "~/lib/page-title";
import { formatOfName, keepImportFile, receiveImportUpload, startRun } from "./import.server";
import type { Route } from "./+types/import";
import { FileField } from "~/components/file-field";

export const handle = { messages: ["pages"], streamsBody: true } satisfies RouteHandle;

/*
 * /b/{bucket}/import (issue 34): a CSV, JSON or NDJSON file is uploaded (with a ZIP of the images and files its
 * media columns name, if any), kept, and checked at once (a dry run); its run's page (import-run.tsx) shows the
 * report, the mapping and the way to import it.
 */

export const loader = pageRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const { bucket } = await requireBucketAccess(request, context, params.bucket);
  const { locale } = await getRequestState(request, context);
  const name = bucketName(bucket, locale);
  return { title: translate(locale, "transfer.importTitle", { bucket: name }), bucket: { name, overview: overviewPath(bucket) } };
});

export const action = pageRoute(async ({ request, context, params }: Route.ActionArgs) => {
  const { user, bucket } = await requireBucketAccess(request, context, params.bucket);
  const { locale } = await getRequestState(request, context);
  try {
    if (!isMultipart(request)) throw new HttpError(400, "transfer.noFile");
    const upload = await receiveImportUpload(incomingBody(request), context.media.storage);
    const fileName = upload.file.originalFilename;
    let format;
    try {
      format = formatOfName(fileName);
    } catch (error) {
      for (const file of [upload.file, upload.zip]) if (file) await context.media.storage.remove(file.temporaryPath);
      throw error;
    }
    const filePath = await keepImportFile(context, upload.file, format);
    const media = upload.zip ? { path: await keepImportFile(context, upload.zip, "zip"), name: upload.zip.originalFilename } : null;
    const run = await startRun(context, {
      bucket,
      user,
      dryRun: true,
      format,
      filePath,
      fileName,
      media,
      settings: { mapping: {}, key: null, locale },
    });
    throw redirect(`/b/${encodeURIComponent(bucket.slug)}/import/${run.id}`);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return data({ refusal: errorText(error, locale) }, { status: error.status });
  }
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

export default function ImportPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <section className="import-page">
      <h1>{loaderData.title}</h1>
      <p>{t("transfer.importIntro")}</p>
      {actionData?.refusal ? (
        <p className="form-error" role="alert">
          {actionData.refusal}
        </p>
      ) : null}
      <Form method="post" encType="multipart/form-data" className="import-upload">
        <FileField
          id="import-file"
          name="file"
          label={t("transfer.file")}
          accept=".csv,.json,.ndjson,.jsonl,text/csv,application/json"
          hint={t("transfer.fileHint")}
          required
        />
        <FileField id="import-media" name="media" label={t("transfer.zip")} accept=".zip,application/zip" hint={t("transfer.zipHint")} />
        <div className="button-row">
          <button type="submit" className="button primary">
            {t("transfer.check")}
          </button>
          <Link to={loaderData.bucket.overview}>{t("transfer.backToOverview", { bucket: loaderData.bucket.name })}</Link>
        </div>
      </Form>
    </section>
  );
}
