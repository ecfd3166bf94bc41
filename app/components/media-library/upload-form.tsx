import { useTranslation } from "react-i18next";
import { BucketOptions } from "./library-filters";
import { Form, Link } from "react-router";
import { LIBRARY_UPLOAD_FILES } from "@core/media/library";
import { FileDrop } from "./file-drop";

export interface UploadOutcome {
  filename: string;
  contentId: string | null;
  errors: string[];
}

/**
 * The library's upload (docs/media.md): files into a bucket the user may see (whose visibility they then share), in a
 * multipart form with a multiple file input, so without JavaScript too; with it, files can be dropped on it. Each
 * file is taken or refused on its own, and the outcomes are listed above the form.
 */
export function UploadForm({
  buckets,
  chosen,
  outcomes,
  refusal,
}: {
  buckets: ReadonlyArray<{ slug: string; name: string }>;
  chosen: string | null;
  outcomes: readonly UploadOutcome[];
  refusal: string | null;
}) {
  const { t } = useTranslation();
  return (
    <details className="media-upload" open={outcomes.length > 0 || refusal !== null}>
      <summary className="button primary">{t("library.upload")}</summary>
      <p className="muted">{t("library.uploadPage.intro", { count: LIBRARY_UPLOAD_FILES })}</p>
      {refusal ? (
        <p className="notice-warning" role="alert">
          {refusal}
        </p>
      ) : null}
      {outcomes.length ? (
        <ul className="media-upload-results" aria-live="polite">
          {outcomes.map((outcome, index) => (
            <li key={index} className={outcome.contentId ? "notice-success" : "notice-warning"}>
              {outcome.contentId ? (
                <>
                  {t("library.uploadPage.uploaded")}: <Link to={`/media/${outcome.contentId}`}>{outcome.filename}</Link>
                </>
              ) : (
                <>
                  {t("library.uploadPage.notUploaded")}: {outcome.filename}
                  <ul>
                    {outcome.errors.map((error) => (
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
          <select id="media-upload-bucket" name="bucket" defaultValue={chosen ?? ""} aria-describedby="media-upload-bucket-hint">
            <BucketOptions buckets={buckets} />
          </select>
        </div>
        <FileDrop id="media-upload-files" name="files" label={t("library.uploadPage.files")} hint={t("library.uploadPage.dropHere")} />
        <button type="submit" className="button primary">
          {t("library.uploadPage.submit")}
        </button>
      </Form>
    </details>
  );
}
