import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import type { MediaKind } from "@core/media/bounds";

/** A use a new file would not fit: the document, the field, the field's messages in words. */
export interface BrokenUseText {
  title: string;
  field: string;
  errors: string[];
}

/**
 * A new file for a library item (docs/media.md), multipart, posted to the item's page; above it, why the last one
 * was refused: the file itself, or the uses it would not fit.
 */
export function ReplaceForm({ kind, refusal, broken }: { kind: MediaKind; refusal: string | null; broken: readonly BrokenUseText[] }) {
  const { t } = useTranslation();
  return (
    <>
      <h2>{t("library.item.replace")}</h2>
      <p className="muted">{t("library.item.replaceHint")}</p>
      {refusal || broken.length ? (
        <div className="notice-warning" role="alert">
          <p>{refusal ?? t("library.item.replaceRefused")}</p>
          {broken.length ? (
            <ul>
              {broken.map((use, index) => (
                <li key={index}>
                  {t("library.item.brokenUse", { title: use.title || t("overview.untitled"), field: use.field })}
                  <ul>
                    {use.errors.map((error) => (
                      <li key={error}>{error}</li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      <Form method="post" encType="multipart/form-data" className="media-replace">
        <label htmlFor="media-replace-file" className="visually-hidden">
          {t("library.item.replace")}
        </label>
        <input id="media-replace-file" type="file" name="file" required accept={kind === "file" ? undefined : `${kind}/*`} />
        <button type="submit" className="button">
          {t("library.item.replaceSubmit")}
        </button>
      </Form>
    </>
  );
}
