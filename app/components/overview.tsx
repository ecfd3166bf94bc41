import { Form, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { ConfirmIntentDialog } from "~/components/confirm-dialog";
import { WhereUsedList } from "~/components/where-used";
import { Pagination, SearchForm, searchPageLink } from "~/components/list-tools";
import { duplicatePath, type ScreenBucket } from "@core/content/screens";

/* The parts of a bucket's overview that the session overviews show too (routes/bucket-overview.tsx). */

/** The search box and the list/grid switch (kept in the session through /session/index-view). */
export function OverviewTools({ search, view }: { search: string; view: "list" | "grid" }) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <div className="overview-tools">
      <SearchForm id="overview-search" search={search} label={t("overview.search")} button={t("overview.searchButton")} />
      <Form method="post" action="/session/index-view" className="view-switch">
        <input type="hidden" name="redirect_to" value={location.pathname + location.search} />
        <button type="submit" name="view" value="list" aria-pressed={view === "list"}>
          {t("overview.list")}
        </button>
        <button type="submit" name="view" value="grid" aria-pressed={view === "grid"}>
          {t("overview.grid")}
        </button>
      </Form>
    </div>
  );
}

export function OverviewPagination({
  page,
  pages,
  hasNext,
  search,
}: {
  page: number;
  pages: number | null;
  hasNext: boolean;
  search: string;
}) {
  const { t } = useTranslation();
  return (
    <Pagination
      label={t("overview.pages")}
      position={pages ? t("overview.pageOf", { page, pages }) : t("overview.page", { page })}
      previous={page > 1 ? { to: searchPageLink(search, page - 1), text: t("overview.previous") } : null}
      next={hasNext ? { to: searchPageLink(search, page + 1), text: t("overview.next") } : null}
    />
  );
}

/** The delete confirmation (?delete=): the documents that refer to this one, then a form post. */
export function DeleteDialog({
  document,
  whereUsed,
}: {
  document: { contentId: string; versionId: string; title: string };
  whereUsed: Parameters<typeof WhereUsedList>[0]["whereUsed"] | null;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <ConfirmIntentDialog
      title={t("overview.deleteTitle")}
      cancelTo={location.pathname + location.search.replace(/[?&]delete=[^&]*/, "")}
      intent="delete"
      fields={{ contentId: document.contentId, versionId: document.versionId }}
      confirmText={t("form.delete")}
    >
      <p>{t("overview.deleteText", { title: document.title || t("overview.untitled") })}</p>
      {whereUsed ? <WhereUsedList whereUsed={whereUsed} /> : null}
    </ConfirmIntentDialog>
  );
}

export interface RowLabels {
  duplicate: string;
  delete: string;
}

/**
 * Its labels come from the page: useTranslation per row copied the i18n instance for every row. Plain links, which
 * the page's useClientLinks navigates: a <Link> per row cost more than the rest of the row.
 */
export function RowActions({
  bucket,
  contentId,
  here,
  labels,
}: {
  bucket: ScreenBucket;
  contentId: string;
  here: string;
  labels: RowLabels;
}) {
  const separator = here.includes("?") ? "&" : "?";
  return (
    <span className="row-links">
      <a href={duplicatePath(bucket, contentId)}>{labels.duplicate}</a>
      <a href={`${here}${separator}delete=${contentId}`} data-prevent-scroll-reset>
        {labels.delete}
      </a>
    </span>
  );
}
