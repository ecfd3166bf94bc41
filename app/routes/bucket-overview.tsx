import type { RouteHandle } from "@core/route-handle";
import { useTranslation } from "react-i18next";
import { dateTimeFormat } from "@core/date-formats";
import { useLocation } from "react-router";
import { OverviewFrame } from "~/components/overview";
import { OverviewTable, RowActions, type RowLabels } from "~/components/overview-table";
import { SelectBox } from "~/components/bulk-bar";
import { documentPath } from "@core/content/screens";
import { PublicationBadge } from "~/components/publishing/publication-badge";
import { EditingMark } from "~/components/presence/editing-mark";
import { TranslationCounts, type LocaleCount } from "~/components/translation-counts";
import { pageTitle } from "~/lib/page-title";
import { overviewAction, overviewLoader } from "./bucket-overview.server";
import type { Route } from "./+types/bucket-overview";
import { OverviewEmpty } from "~/components/overview-empty";

export const handle = { messages: ["pages"] } satisfies RouteHandle;

export const loader = overviewLoader("generic");

export const action = overviewAction("generic");

/**
 * The server formats in its time zone, the browser in the user's; the hydration warning of that difference is
 * expected.
 */
function dateFormat(language: string): Intl.DateTimeFormat {
  return dateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" });
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.bucket.name);

export default function BucketOverview({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const { bucket, items, view } = loaderData;
  const here = location.pathname + location.search;
  const toDelete = items.find((item) => item.contentId === loaderData.confirmDelete);
  const date = (iso: string) => dateFormat(i18n.language).format(new Date(iso));
  const rowLabels: RowLabels = { duplicate: t("form.duplicate"), delete: t("form.delete") };
  const countLabel = ({ locale, filled, total }: LocaleCount) =>
    t("overview.translationCount", { locale: locale.toUpperCase(), filled, total, count: total });
  const counts = (translation: readonly LocaleCount[] | null) =>
    translation ? <TranslationCounts counts={translation} label={countLabel} /> : null;
  return (
    <OverviewFrame
      className="overview"
      data={loaderData}
      actionData={actionData}
      toDelete={toDelete}
      pageIds={items.map((item) => item.contentId)}
    >
      {items.length === 0 ? (
        <OverviewEmpty
          filters={loaderData}
          words={{
            noResults: t("overview.noResults"),
            noneInState: t("overview.noneInState"),
            noneMissing: (locale) => t("overview.noneMissing", { locale }),
            empty: t("overview.empty"),
          }}
        />
      ) : view === "grid" ? (
        <ul className="content-grid">
          {items.map((item) => (
            <li key={item.contentId} className="content-card">
              <SelectBox contentId={item.contentId} label={t("bulk.select", { title: item.title || t("overview.untitled") })} />
              <a href={documentPath(bucket, item.contentId)} className="content-title">
                {item.title || t("overview.untitled")}
              </a>
              <EditingMark names={item.editing} />
              <time className="muted" dateTime={item.updatedAt} suppressHydrationWarning>
                {date(item.updatedAt)}
              </time>
              <PublicationBadge state={item.state} />
              {counts(item.translation)}
              <RowActions bucket={bucket} contentId={item.contentId} here={here} labels={rowLabels} />
            </li>
          ))}
        </ul>
      ) : (
        <OverviewTable
          className="content-table"
          selectable
          head={
            <>
              <th scope="col">{t("overview.title")}</th>
              <th scope="col" className="state-cell">
                {t("overview.state")}
              </th>
              {loaderData.translated ? (
                <th scope="col" className="translation-cell">
                  {t("overview.translations")}
                </th>
              ) : null}
              <th scope="col">{t("overview.updated")}</th>
            </>
          }
        >
          {items.map((item) => (
            <tr key={item.contentId}>
              <td className="select-cell">
                <SelectBox contentId={item.contentId} label={t("bulk.select", { title: item.title || t("overview.untitled") })} />
              </td>
              <td>
                <a href={documentPath(bucket, item.contentId)}>{item.title || t("overview.untitled")}</a>
                <EditingMark names={item.editing} />
                {/* On a phone the state goes under the title: four columns do not fit. */}
                <span className="row-state">
                  <PublicationBadge state={item.state} />
                  {counts(item.translation)}
                </span>
              </td>
              <td className="state-cell">
                <PublicationBadge state={item.state} />
              </td>
              {loaderData.translated ? <td className="translation-cell">{counts(item.translation)}</td> : null}
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
        </OverviewTable>
      )}
    </OverviewFrame>
  );
}
