import { useTranslation } from "react-i18next";
import { Form } from "react-router";

/** Import a bucket definition: a file, or the JSON pasted (the file wins when both are given). */
export function ImportForm({ text = "" }: { text?: string }) {
  const { t } = useTranslation();
  return (
    <section className="bucket-import" aria-labelledby="bucket-import-title">
      <h2 id="bucket-import-title">{t("adminBuckets.import.title")}</h2>
      <p className="field-note">{t("adminBuckets.import.intro")}</p>
      <Form method="post" action="/settings/buckets/import" encType="multipart/form-data" className="import-form">
        <div className="admin-field">
          <label htmlFor="import-file">{t("adminBuckets.import.file")}</label>
          <input id="import-file" name="file" type="file" accept="application/json,.json" />
        </div>
        <div className="admin-field">
          <label htmlFor="import-text">{t("adminBuckets.import.text")}</label>
          <textarea id="import-text" name="definition" rows={6} defaultValue={text} spellCheck={false} className="schema-textarea" />
        </div>
        <button type="submit" name="intent" value="check" className="button">
          {t("adminBuckets.import.submit")}
        </button>
      </Form>
    </section>
  );
}
