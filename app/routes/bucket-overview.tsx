import type { RouteHandle } from "@core/route-handle";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { FlashNotice } from "~/components/flash-notice";
import { PublicationBadge } from "~/components/publishing/publication-badge";
import { ListHeader } from "~/components/list-tools";
import { DeleteDialog, OverviewPagination, OverviewTools, RowActions, type RowLabels } from "~/components/overview";
import { documentPath, newDocumentPath } from "@core/content/screens";
import { useClientLinks } from "~/lib/client-links";
import { pageTitle } from "~/lib/page-title";
import { overviewAction, overviewLoader } from "./bucket-overview.server";
import type { Route } from "./+types/bucket-overview";

export const handle = { messages: ["pages"] } satisfies RouteHandle;

export const loader = overviewLoader("generic");

export const action = overviewAction("generic");

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
      <ListHeader title={bucket.name} create={{ to: newDocumentPath(bucket), text: t("overview.new") }} />
      <OverviewTools search={loaderData.search} view={view} state={loaderData.state} />
      {loaderData.deleted && !actionData && !toDelete ? <FlashNotice>{t("form.deleted")}</FlashNotice> : null}
      {actionData && "deleteConflict" in actionData ? (
        <p className="form-error" role="alert">
          {t("overview.deleteConflict")}
        </p>
      ) : null}
      {items.length === 0 ? (
        <p className="empty">
          {loaderData.search ? t("overview.noResults") : loaderData.state ? t("overview.noneInState") : t("overview.empty")}
        </p>
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
              <PublicationBadge state={item.state} />
              <RowActions bucket={bucket} contentId={item.contentId} here={here} labels={rowLabels} />
            </li>
          ))}
        </ul>
      ) : (
        <table className="content-table">
          <thead>
            <tr>
              <th scope="col">{t("overview.title")}</th>
              <th scope="col" className="state-cell">
                {t("overview.state")}
              </th>
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
                  {/* On a phone the state goes under the title: four columns do not fit. */}
                  <span className="row-state">
                    <PublicationBadge state={item.state} />
                  </span>
                </td>
                <td className="state-cell">
                  <PublicationBadge state={item.state} />
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
      <OverviewPagination
        page={page}
        pages={loaderData.pages}
        hasNext={loaderData.hasNext}
        search={loaderData.search}
        state={loaderData.state}
      />
      {toDelete ? <DeleteDialog document={toDelete} whereUsed={loaderData.whereUsed} /> : null}
    </section>
  );
}
