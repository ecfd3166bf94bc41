import { Form } from "react-router";
import { useTranslation } from "react-i18next";
import type { PublicationState } from "@core/content/publication";

/* The overview's bulk actions (issue 34): the bar above the list and a box per document (docs/transfer.md). */

/** The form the rows' SelectBoxes belong to (by their `form` attribute: the list stays a table). */
const BULK_FORM = "overview-bulk";

/**
 * The bulk actions' bar (issue 34): which documents (the ticked ones, this page's, or every one the search and
 * filter match) and the action; a GET to the bulk page, which shows what it will do before it does it.
 */
export function BulkBar({
  bucketSlug,
  pageIds,
  search,
  state,
  missing,
}: {
  bucketSlug: string;
  pageIds: readonly string[];
  search: string;
  state: PublicationState | null;
  missing: string | null;
}) {
  const { t } = useTranslation();
  return (
    <Form method="get" action={`/b/${encodeURIComponent(bucketSlug)}/bulk`} id={BULK_FORM} className="bulk-bar" aria-label={t("bulk.bar")}>
      {search ? <input type="hidden" name="q" value={search} /> : null}
      {state ? <input type="hidden" name="state" value={state} /> : null}
      {missing ? <input type="hidden" name="missing" value={missing} /> : null}
      {pageIds.map((id) => (
        <input key={id} type="hidden" name="page" value={id} />
      ))}
      <label htmlFor="bulk-scope">{t("bulk.scope")}</label>
      <select id="bulk-scope" name="scope" defaultValue="ticked">
        <option value="ticked">{t("bulk.scopeTicked")}</option>
        <option value="page">{t("bulk.scopePage", { count: pageIds.length })}</option>
        <option value="all">{search || state || missing ? t("bulk.scopeAll") : t("bulk.scopeEvery")}</option>
      </select>
      <span className="bulk-actions">
        <button type="submit" name="action" value="set" className="button">
          {t("bulk.setAction")}
        </button>
        <button type="submit" name="action" value="duplicate" className="button">
          {t("bulk.duplicateAction")}
        </button>
        <button type="submit" name="action" value="delete" className="button">
          {t("bulk.deleteAction")}
        </button>
      </span>
    </Form>
  );
}

/** A row's box in the bulk bar's form; `label` names the document for screen readers. */
export function SelectBox({ contentId, label }: { contentId: string; label: string }) {
  return <input type="checkbox" name="id" value={contentId} form={BULK_FORM} aria-label={label} className="select-box" />;
}
