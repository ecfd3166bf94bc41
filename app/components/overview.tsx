import { Form, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { ConfirmIntentDialog } from "~/components/confirm-dialog";
import { WhereUsedList } from "~/components/where-used";
import { Pagination, SearchForm, searchPageLink } from "~/components/list-tools";
import { duplicatePath, type ScreenBucket } from "@core/content/screens";
import { PUBLICATION_STATES, type PublicationState } from "@core/content/publication";

/* The parts of a bucket's overview that the session overviews show too (routes/bucket-overview.tsx). */

/**
 * The search box (with the publication state filter where the overview has one: `state`, null for all) and the
 * list/grid switch (kept in the session through /session/index-view).
 */
export function OverviewTools({ search, view, state }: { search: string; view: "list" | "grid"; state?: PublicationState | null }) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <div className="overview-tools">
      <SearchForm id="overview-search" search={search} label={t("overview.search")} button={t("overview.searchButton")}>
        {state === undefined ? null : (
          <>
            <label htmlFor="overview-state" className="visually-hidden">
              {t("overview.stateFilter")}
            </label>
            <select id="overview-state" name="state" defaultValue={state ?? ""} key={state ?? ""}>
              <option value="">{t("overview.allStates")}</option>
              {PUBLICATION_STATES.map((option) => (
                <option key={option} value={option}>
                  {t(`publishing.state.${option}`)}
                </option>
              ))}
            </select>
          </>
        )}
      </SearchForm>
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
  state = null,
}: {
  page: number;
  pages: number | null;
  hasNext: boolean;
  search: string;
  state?: PublicationState | null;
}) {
  const { t } = useTranslation();
  return (
    <Pagination
      label={t("overview.pages")}
      position={pages ? t("overview.pageOf", { page, pages }) : t("overview.page", { page })}
      previous={page > 1 ? { to: searchPageLink(search, page - 1, { state }), text: t("overview.previous") } : null}
      next={hasNext ? { to: searchPageLink(search, page + 1, { state }), text: t("overview.next") } : null}
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
