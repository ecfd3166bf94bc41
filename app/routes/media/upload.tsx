import { useTranslation } from "react-i18next";
import { data, Form, Link } from "react-router";
import type { RouteHandle } from "@core/route-handle";
import { uploadToLibrary } from "@server/media/library-upload";
import { LIBRARY_UPLOAD_FILES } from "@core/media/library";
import { incomingBody } from "@server/web/form-post";
import { pageRoute } from "@server/web/respond";
import { translate } from "@core/messages";
import { errorText, HttpError } from "@server/errors";
import { inWords, requireLibrary } from "./media.server";
import { FileDrop } from "~/components/media-library/file-drop";
import { pageTitle } from "~/lib/page-title";
import type { Route } from "./+types/upload";
import "~/styles/media-library.css";

export const handle = { messages: ["pages", "media"], streamsBody: true } satisfies RouteHandle;

/*
 * /media/upload (docs/media.md): files straight into the library, several at once, into a bucket the user may see
 * (whose visibility they then share). A multiple file input in a multipart form, so without JavaScript too; with it,
 * files can be dropped on the form. Each file is checked and taken or refused on its own, and the page lists both.
 */

export const loader = pageRoute(async ({ request, context }: Route.LoaderArgs) => {
  const { locale, buckets } = await requireLibrary(request, context);
  const asked = new URL(request.url).searchParams.get("bucket");
  return {
    title: translate(locale, "library.uploadPage.title"),
    buckets: buckets.map(({ slug, name }) => ({ slug, name })),
    chosen: buckets.some((bucket) => bucket.slug === asked) ? asked : (buckets[0]?.slug ?? null),
  };
});

export const action = pageRoute(async ({ request, context }: Route.ActionArgs) => {
  const { user, locale, buckets } = await requireLibrary(request, context);
  let upload: Awaited<ReturnType<typeof uploadToLibrary>>;
  try {
    upload = await uploadToLibrary(incomingBody(request), buckets, user.id, { db: context.db, media: context.media });
  } catch (error) {
    // The whole upload refused (no bucket, no file, too many files, an unreadable body): the form again, with why.
    if (!(error instanceof HttpError)) throw error;
    return data({ refusal: errorText(error, locale), bucket: null, results: [] }, { status: error.status });
  }
  const { bucket, results } = upload;
  return {
    refusal: null,
    bucket: bucket.slug,
    results: results.map((result) =>
      "contentId" in result
        ? { filename: result.filename, contentId: result.contentId, errors: [] }
        : { filename: result.filename, contentId: null, errors: inWords(locale, result.errors) },
    ),
  };
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

export default function LibraryUpload({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <section className="media-upload">
      <p>
        <Link to="/media">{t("library.title")}</Link>
      </p>
      <h1>{t("library.uploadPage.title")}</h1>
      <p className="muted">{t("library.uploadPage.intro", { count: LIBRARY_UPLOAD_FILES })}</p>
      {actionData?.refusal ? (
        <p className="notice-warning" role="alert">
          {actionData.refusal}
        </p>
      ) : null}
      {actionData?.results.length ? (
        <ul className="media-upload-results" aria-live="polite">
          {actionData.results.map((result, index) => (
            <li key={index} className={result.contentId ? "notice-success" : "notice-warning"}>
              {result.contentId ? (
                <>
                  {t("library.uploadPage.uploaded")}: <Link to={`/media/${result.contentId}`}>{result.filename}</Link>
                </>
              ) : (
                <>
                  {t("library.uploadPage.notUploaded")}: {result.filename}
                  <ul>
                    {result.errors.map((error) => (
                      <li key={error}>{error}</li>
                    ))}
                  </ul>
                </>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      <Form method="post" encType="multipart/form-data" className="media-upload-form">
        <div className="field">
          <label htmlFor="media-upload-bucket">{t("library.uploadPage.bucket")}</label>
          <p className="field-hint" id="media-upload-bucket-hint">
            {t("library.uploadPage.bucketHint")}
          </p>
          <select
            id="media-upload-bucket"
            name="bucket"
            defaultValue={actionData?.bucket ?? loaderData.chosen ?? ""}
            aria-describedby="media-upload-bucket-hint"
          >
            {loaderData.buckets.map((bucket) => (
              <option key={bucket.slug} value={bucket.slug}>
                {bucket.name}
              </option>
            ))}
          </select>
        </div>
        <FileDrop id="media-upload-files" name="files" label={t("library.uploadPage.files")} hint={t("library.uploadPage.dropHere")} />
        <button type="submit" className="button primary">
          {t("library.uploadPage.submit")}
        </button>
      </Form>
    </section>
  );
}
