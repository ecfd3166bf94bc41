import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import type { Message } from "@core/messages";
import { messageText } from "~/lib/i18n";

/*
 * The bucket's danger zone: deleting it. A bucket that holds documents asks for its slug to be typed first (the
 * server checks it: the action's `delete` intent).
 */

export function DeleteBucket({ slug, contentCount, error }: { slug: string; contentCount: number; error?: Message }) {
  const { t } = useTranslation();
  return (
    <section className="danger-zone" aria-labelledby="delete-bucket-title">
      <h2 id="delete-bucket-title">{t("adminBuckets.delete.title")}</h2>
      <Form method="post">
        <input type="hidden" name="intent" value="delete" />
        {contentCount > 0 ? (
          <>
            <p>{t("adminBuckets.delete.holdsDocuments", { count: contentCount })}</p>
            <label htmlFor="confirm-slug">{t("adminBuckets.delete.typeSlug", { slug })}</label>
            <input
              id="confirm-slug"
              name="confirmSlug"
              type="text"
              autoComplete="off"
              spellCheck={false}
              aria-describedby={error ? "delete-error" : undefined}
            />
          </>
        ) : (
          <p>{t("adminBuckets.delete.empty")}</p>
        )}
        {error ? (
          <p id="delete-error" className="field-error" role="alert">
            {messageText(t, error)}
          </p>
        ) : null}
        <button type="submit" className="button danger">
          {t("adminBuckets.delete.submit")}
        </button>
      </Form>
    </section>
  );
}
