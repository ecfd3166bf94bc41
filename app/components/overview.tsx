import { useRef, type ReactNode } from "react";
import { Form, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { ConfirmIntentDialog } from "~/components/confirm-dialog";
import { FlashNotice } from "~/components/flash-notice";
import { WhereUsedList } from "~/components/where-used";
import { ListHeader, Pagination, SearchForm, searchPageLink } from "~/components/list-tools";
import { duplicatePath, newDocumentPath, type ScreenBucket } from "@core/content/screens";
import { PUBLICATION_STATES, type PublicationState } from "@core/content/publication";
import { useClientLinks } from "~/lib/client-links";
import { BulkBar } from "~/components/bulk-bar";

export { SelectBox } from "~/components/bulk-bar";

/* The parts of a bucket's overview that the session overviews show too (routes/bucket-overview.tsx). */

type WhereUsed = Parameters<typeof WhereUsedList>[0]["whereUsed"];

/** What the overview page around a list reads of its loader's data. */
export interface OverviewFrameData {
  bucket: ScreenBucket & { name: string };
  search: string;
  view: "list" | "grid";
  deleted: boolean;
  page: number;
  pages: number | null;
  hasNext: boolean;
  whereUsed: WhereUsed | null;
  /** The publication state filter (docs/publishing.md), null for all; absent where the overview has none. */
  state?: PublicationState | null;
  /** The translation filter (a locale the documents lack), and the locales it offers (none: no filter). */
  missing?: string | null;
  locales?: readonly string[];
}

/**
 * An overview page around its list (`children`): the heading with the New button, the tools, `notes`, the notices
 * of a delete; after the list its pages and the delete confirmation (`toDelete`). Its plain links (RowActions)
 * navigate through useClientLinks.
 */
export function OverviewFrame({
  className,
  data,
  actionData,
  toDelete,
  notes,
  pageIds,
  children,
}: {
  className: string;
  data: OverviewFrameData;
  actionData: object | undefined;
  toDelete: { contentId: string; versionId: string; title: string } | undefined;
  notes?: ReactNode;
  /** The listed documents, where the list has bulk actions (its rows' SelectBox): the bar above it. */
  pageIds?: readonly string[];
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const list = useRef<HTMLElement>(null);
  useClientLinks(list);
  return (
    <section className={className} ref={list}>
      <ListHeader title={data.bucket.name} create={{ to: newDocumentPath(data.bucket), text: t("overview.new") }} />
      <OverviewTools
        search={data.search}
        view={data.view}
        state={data.state}
        translation={{ missing: data.missing ?? null, locales: data.locales ?? [] }}
        transferPath={`/b/${encodeURIComponent(data.bucket.slug)}`}
      />
      {notes}
      {data.deleted && !actionData && !toDelete ? <FlashNotice>{t("form.deleted")}</FlashNotice> : null}
      {actionData && "deleteConflict" in actionData ? (
        <p className="form-error" role="alert">
          {t("overview.deleteConflict")}
        </p>
      ) : null}
      {pageIds?.length ? (
        <BulkBar
          bucketSlug={data.bucket.slug}
          pageIds={pageIds}
          search={data.search}
          state={data.state ?? null}
          missing={data.missing ?? null}
        />
      ) : null}
      {children}
      <OverviewPagination
        page={data.page}
        pages={data.pages}
        hasNext={data.hasNext}
        search={data.search}
        state={data.state}
        missing={data.missing ?? null}
      />
      {toDelete ? <DeleteDialog document={toDelete} whereUsed={data.whereUsed} /> : null}
    </section>
  );
}

/**
 * The search box (with the publication state filter where the overview has one: `state`, null for all) and the
 * list/grid switch (kept in the session through /session/index-view).
 */
export function OverviewTools({
  search,
  view,
  state,
  translation = { missing: null, locales: [] },
  transferPath,
}: {
  search: string;
  view: "list" | "grid";
  state?: PublicationState | null;
  /** The translation filter's locale and its choices (none: the bucket does not translate). */
  translation?: { missing: string | null; locales: readonly string[] };
  /** The bucket's generic path, under which its export and import are. */
  transferPath: string;
}) {
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
                  {t(`publicationState.${option}`)}
                </option>
              ))}
            </select>
          </>
        )}
        {translation.locales.length ? (
          <>
            <label htmlFor="overview-missing" className="visually-hidden">
              {t("overview.translationFilter")}
            </label>
            <select id="overview-missing" name="missing" defaultValue={translation.missing ?? ""} key={translation.missing ?? ""}>
              <option value="">{t("overview.allTranslations")}</option>
              {translation.locales.map((locale) => (
                <option key={locale} value={locale}>
                  {t("overview.missingLocale", { locale: locale.toUpperCase() })}
                </option>
              ))}
            </select>
          </>
        ) : null}
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
      <div className="transfer-links">
        <a href={`${transferPath}/import`} className="button">
          {t("transfer.importLink")}
        </a>
        {translation.locales.length ? (
          <a href={`${transferPath}/translations${searchPageQuery(search, state ?? null)}`} className="button">
            {t("translations.link")}
          </a>
        ) : null}
        <ExportMenu path={`${transferPath}/export`} search={search} state={state ?? null} missing={translation.missing} />
      </div>
    </div>
  );
}

/** The overview's search and state filter as a query (`?q=…&state=…`, "" for none): what the translations page exports. */
function searchPageQuery(search: string, state: PublicationState | null): string {
  const query = new URLSearchParams([...(search ? [["q", search]] : []), ...(state ? [["state", state]] : [])]).toString();
  return query ? `?${query}` : "";
}

/** Downloads of the documents the overview lists (all its pages): a <details> menu, so it opens without JavaScript. */
function ExportMenu({
  path,
  search,
  state,
  missing,
}: {
  path: string;
  search: string;
  state: PublicationState | null;
  missing: string | null;
}) {
  const { t } = useTranslation();
  const href = (format: "csv" | "json" | "ndjson") => {
    const query = new URLSearchParams({ format });
    if (search) query.set("q", search);
    if (state) query.set("state", state);
    if (missing) query.set("missing", missing);
    return `${path}?${query}`;
  };
  return (
    <details className="export-menu">
      <summary>{t("transfer.export")}</summary>
      <div className="export-menu-panel">
        <p>{t("transfer.exportHint")}</p>
        <ul>
          {(["csv", "json", "ndjson"] as const).map((format) => (
            <li key={format}>
              <a href={href(format)} download>
                {t(`transfer.${format}`)}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </details>
  );
}

export function OverviewPagination({
  page,
  pages,
  hasNext,
  search,
  state = null,
  missing = null,
}: {
  page: number;
  pages: number | null;
  hasNext: boolean;
  search: string;
  state?: PublicationState | null;
  missing?: string | null;
}) {
  const { t } = useTranslation();
  return (
    <Pagination
      label={t("overview.pages")}
      position={pages ? t("overview.pageOf", { page, pages }) : t("overview.page", { page })}
      previous={page > 1 ? { to: searchPageLink(search, page - 1, { state, missing }), text: t("overview.previous") } : null}
      next={hasNext ? { to: searchPageLink(search, page + 1, { state, missing }), text: t("overview.next") } : null}
    />
  );
}

/**
 * An overview's table: its columns' heads (`head`), then the row actions' column, and its rows; `selectable` puts a
 * column for the rows' SelectBoxes first.
 */
export function OverviewTable({
  className,
  head,
  selectable = false,
  children,
}: {
  className: string;
  head: ReactNode;
  selectable?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <table className={className}>
      <thead>
        <tr>
          {selectable ? (
            <th scope="col" className="select-cell">
              <span className="visually-hidden">{t("bulk.bar")}</span>
            </th>
          ) : null}
          {head}
          <th scope="col">
            <span className="visually-hidden">{t("overview.actions")}</span>
          </th>
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/** The delete confirmation (?delete=): the documents that refer to this one, then a form post. */
export function DeleteDialog({
  document,
  whereUsed,
}: {
  document: { contentId: string; versionId: string; title: string };
  whereUsed: WhereUsed | null;
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
