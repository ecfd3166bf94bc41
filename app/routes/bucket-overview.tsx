import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useLocation } from "react-router";
import { ContentNotFoundError, deleteContent, listOverview, VersionConflictError } from "@server/content/store";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { FlashNotice } from "~/components/flash-notice";
import { WhereUsedList } from "~/components/where-used";
import { findWhereUsed } from "@server/content/where-used";
import { titleProperty, titleText } from "@core/content/title";
import { requireBucketAccess } from "@server/web/guards";
import { isUuid } from "@core/ids";
import { getRequestState, interfaceBucketName } from "@server/web/request-state";
import { HttpError } from "@server/errors";
import { pageRoute } from "@server/web/respond";
import {
  documentPath,
  duplicatePath,
  hasOwnOverview,
  newDocumentPath,
  overviewPath,
  type ScreenBucket,
  type ScreenName,
} from "@core/content/screens";
import { useClientLinks } from "~/lib/client-links";
import type { Route } from "./+types/bucket-overview";
import { pageTitle } from "~/lib/page-title";

export const PAGE_SIZE = 20;

export function pageFrom(value: string | null | undefined): number | null {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 && page <= 1_000_000 ? page : null;
}

type OverviewArgs = Pick<Route.LoaderArgs, "request" | "context" | "params">;

/**
 * An overview's search (?q=), page (?page=, else 1 while searching, else the page remembered for this bucket), view
 * (list or grid, kept in the session) and the cookie that remembers the page. The session overviews share it.
 */
export async function overviewPage(request: Request, context: OverviewArgs["context"], bucketSlug: string) {
  const url = new URL(request.url);
  const { session } = await getRequestState(request, context);
  const search = url.searchParams.get("q")?.trim() ?? "";
  const remembered = session.get("lastVisitedBucket") === bucketSlug ? (session.get("lastVisitedPageNumber") ?? 1) : 1;
  const page = pageFrom(url.searchParams.get("page")) ?? (search ? 1 : remembered);
  // Signing a cookie costs more than the rest of the loader: only when the remembered page changes.
  const headers = new Headers();
  if (session.get("lastVisitedPageNumber") !== page || session.get("lastVisitedBucket") !== bucketSlug) {
    session.set("lastVisitedPageNumber", page);
    session.set("lastVisitedBucket", bucketSlug);
    headers.set("Set-Cookie", await context.sessionStorage.commitSession(session));
  }
  const view: "list" | "grid" = session.get("indexView") ?? "list";
  return { search, page, view, headers };
}

/** The document the delete confirmation asks about (?delete=). */
export function deleteParam(url: URL): string | null {
  const value = url.searchParams.get("delete");
  return isUuid(value ?? undefined) ? value : null;
}

/**
 * One formatter per language: building an Intl.DateTimeFormat per row cost more
 * than the rest of the page. The server formats in its time zone, the browser in
 * the user's; the hydration warning of that difference is expected.
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(language: string): Intl.DateTimeFormat {
  let format = dateFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" });
    dateFormats.set(language, format);
  }
  return format;
}

/**
 * A bucket's overview on a screen: the generic one (/b/{bucket}) sends a bucket whose screen has its own overview
 * there; a screen's own overview answers 404 for a bucket of another screen (core/content/screens.ts).
 */
export const overviewLoader = (screen: ScreenName) =>
  pageRoute(async ({ request, context, params }: OverviewArgs) => {
    const { user, bucket } = await requireBucketAccess(request, context, params.bucket);
    if (screen !== "generic" && bucket.screen !== screen) throw new HttpError(404, "errors.notFound");
    if (bucket.singleton || (screen === "generic" && hasOwnOverview(bucket))) throw redirect(overviewPath(bucket));
    const url = new URL(request.url);
    const { search, page, view, headers } = await overviewPage(request, context, bucket.slug);
    const titleKey = titleProperty(bucket.jsonSchema);
    const { rows, total } = await listOverview(context.db, bucket.id, {
      limit: PAGE_SIZE + 1,
      offset: (page - 1) * PAGE_SIZE,
      search,
      titleKey,
    });
    const confirmDelete = deleteParam(url);
    // The delete confirmation lists the documents that refer to this one (server/content/where-used.ts).
    const whereUsed =
      confirmDelete && rows.some((row) => row.contentId === confirmDelete)
        ? await findWhereUsed(context.db, user, {
            collection: bucket.collectionName,
            contentId: confirmDelete,
            locale: (await getRequestState(request, context)).locale,
          })
        : null;
    return data(
      {
        bucket: {
          slug: bucket.slug,
          name: await interfaceBucketName(request, context, bucket),
          singleton: bucket.singleton,
          screen: bucket.screen,
        },
        items: rows.slice(0, PAGE_SIZE).map((row) => ({
          contentId: row.contentId,
          versionId: row.versionId,
          title: titleText(row.title, bucket.locales),
          updatedAt: row.createdAt.toISOString(),
        })),
        page,
        hasNext: rows.length > PAGE_SIZE,
        pages: total === null ? null : Math.max(1, Math.ceil(total / PAGE_SIZE)),
        total,
        search,
        view,
        confirmDelete,
        whereUsed,
        // After a delete (the action's redirect): the page says so.
        deleted: url.searchParams.has("deleted"),
      },
      { headers },
    );
  });

export const loader = overviewLoader("generic");

/** Deletes a document (after the confirm dialog); a stale version is refused, nothing lost. */
export const overviewAction = (screen: ScreenName) =>
  pageRoute(async ({ request, context, params }: Pick<Route.ActionArgs, "request" | "context" | "params">) => {
    const { user, bucket } = await requireBucketAccess(request, context, params.bucket);
    if (screen !== "generic" && bucket.screen !== screen) throw new HttpError(404, "errors.notFound");
    const form = await request.formData();
    const text = (name: string) => {
      const value = form.get(name);
      return typeof value === "string" ? value : "";
    };
    const contentId = text("contentId");
    const versionId = text("versionId");
    if (form.get("intent") !== "delete" || !isUuid(contentId) || !isUuid(versionId)) {
      throw new HttpError(400, "errors.badRequest");
    }
    try {
      await deleteContent(context.db, bucket.id, contentId, versionId, { actor: user, bucket });
    } catch (error) {
      // Gone already (deleted in another tab): what the editor wanted is done.
      if (error instanceof ContentNotFoundError) return redirect(`${overviewPath(bucket)}?deleted`);
      if (error instanceof VersionConflictError) return data({ deleteConflict: true }, { status: 409 });
      throw error;
    }
    return redirect(`${overviewPath(bucket)}?deleted`);
  });

export const action = overviewAction("generic");

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.bucket.name);

export default function BucketOverview({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const { bucket, items, page, view } = loaderData;
  const here = location.pathname + location.search;
  const toDelete = items.find((item) => item.contentId === loaderData.confirmDelete);
  const date = (iso: string) => dateFormat(i18n.language).format(new Date(iso));
  const rowLabels: RowLabels = { duplicate: t("form.duplicate"), delete: t("form.delete") };
  const list = useRef<HTMLElement>(null);
  useClientLinks(list);
  return (
    <section className="overview" ref={list}>
      <header className="overview-header">
        <h1>{bucket.name}</h1>
        <Link to={newDocumentPath(bucket)} className="button primary">
          {t("overview.new")}
        </Link>
      </header>
      <OverviewTools search={loaderData.search} view={view} />
      {loaderData.deleted && !actionData && !toDelete ? <FlashNotice>{t("form.deleted")}</FlashNotice> : null}
      {actionData && "deleteConflict" in actionData ? (
        <p className="form-error" role="alert">
          {t("overview.deleteConflict")}
        </p>
      ) : null}
      {items.length === 0 ? (
        <p className="empty">{loaderData.search ? t("overview.noResults") : t("overview.empty")}</p>
      ) : view === "grid" ? (
        <ul className="content-grid">
          {items.map((item) => (
            <li key={item.contentId} className="content-card">
              <a href={documentPath(bucket, item.contentId)} className="content-title">
                {item.title || t("overview.untitled")}
              </a>
              <time className="muted" dateTime={item.updatedAt} suppressHydrationWarning>
                {date(item.updatedAt)}
              </time>
              <RowActions bucket={bucket} contentId={item.contentId} here={here} labels={rowLabels} />
            </li>
          ))}
        </ul>
      ) : (
        <table className="content-table">
          <thead>
            <tr>
              <th scope="col">{t("overview.title")}</th>
              <th scope="col">{t("overview.updated")}</th>
              <th scope="col">
                <span className="visually-hidden">{t("overview.actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.contentId}>
                <td>
                  <a href={documentPath(bucket, item.contentId)}>{item.title || t("overview.untitled")}</a>
                </td>
                <td>
                  <time dateTime={item.updatedAt} suppressHydrationWarning>
                    {date(item.updatedAt)}
                  </time>
                </td>
                <td>
                  <RowActions bucket={bucket} contentId={item.contentId} here={here} labels={rowLabels} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <OverviewPagination page={page} pages={loaderData.pages} hasNext={loaderData.hasNext} search={loaderData.search} />
      {toDelete ? <DeleteDialog document={toDelete} whereUsed={loaderData.whereUsed} /> : null}
    </section>
  );
}

/** The search box and the list/grid switch (kept in the session through /session/index-view). */
export function OverviewTools({ search, view }: { search: string; view: "list" | "grid" }) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <div className="overview-tools">
      <Form method="get" role="search" className="search">
        <label htmlFor="overview-search" className="visually-hidden">
          {t("overview.search")}
        </label>
        <input id="overview-search" type="search" name="q" defaultValue={search} placeholder={t("overview.search")} />
        <button type="submit" className="button small">
          {t("overview.searchButton")}
        </button>
      </Form>
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
  const pageLink = (target: number) => `?${new URLSearchParams({ ...(search ? { q: search } : {}), page: String(target) })}`;
  return (
    <nav className="pagination" aria-label={t("overview.pages")}>
      {page > 1 ? (
        <Link to={pageLink(page - 1)} rel="prev">
          {t("overview.previous")}
        </Link>
      ) : null}
      <span>{pages ? t("overview.pageOf", { page, pages }) : t("overview.page", { page })}</span>
      {hasNext ? (
        <Link to={pageLink(page + 1)} rel="next">
          {t("overview.next")}
        </Link>
      ) : null}
    </nav>
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
    <ConfirmDialog
      title={t("overview.deleteTitle")}
      cancelTo={location.pathname + location.search.replace(/[?&]delete=[^&]*/, "")}
      confirm={
        <Form method="post">
          <input type="hidden" name="contentId" value={document.contentId} />
          <input type="hidden" name="versionId" value={document.versionId} />
          <button type="submit" name="intent" value="delete" className="button danger">
            {t("form.delete")}
          </button>
        </Form>
      }
    >
      <p>{t("overview.deleteText", { title: document.title || t("overview.untitled") })}</p>
      {whereUsed ? <WhereUsedList whereUsed={whereUsed} /> : null}
    </ConfirmDialog>
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
