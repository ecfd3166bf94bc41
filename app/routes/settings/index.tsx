import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { listActivity, type ActivityArea } from "@server/admin/activity";
import { activityEntries } from "@server/admin/activity-entries";
import { requireAdmin } from "@server/web/guards";
import { pageRoute } from "@server/web/respond";
import { Pagination } from "~/components/list-tools";
import { DateTime } from "~/components/settings/people";
import { pageNumber } from "@core/paging";
import { translate } from "@core/messages";
import { getRequestState } from "@server/web/request-state";
import type { Route } from "./+types/index";
import { pageTitle } from "~/lib/page-title";

export const ACTIVITY_PAGE_SIZE = 25;

export const loader = pageRoute(async ({ request, context }: Route.LoaderArgs) => {
  await requireAdmin(request, context);
  const { locale } = await getRequestState(request, context);
  const page = pageNumber(new URL(request.url).searchParams.get("page"));
  const rows = await listActivity(context.db, { limit: ACTIVITY_PAGE_SIZE + 1, offset: (page - 1) * ACTIVITY_PAGE_SIZE });
  const entries = await activityEntries(context.db, rows.slice(0, ACTIVITY_PAGE_SIZE), locale);
  return {
    title: translate(locale, "settings.title"),
    page,
    hasNext: rows.length > ACTIVITY_PAGE_SIZE,
    activity: entries.map((entry) => ({ ...entry, createdAt: entry.createdAt.toISOString() })),
  };
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

const AREAS = [
  { to: "/settings/buckets", title: "settings.areas.buckets.title", text: "settings.areas.buckets.text" },
  { to: "/settings/users", title: "settings.areas.users.title", text: "settings.areas.users.text" },
  { to: "/settings/invite-user", title: "settings.areas.invite.title", text: "settings.areas.invite.text" },
  { to: "/settings/new-client", title: "settings.areas.clients.title", text: "settings.areas.clients.text" },
  { to: "/settings/webhooks", title: "webhooks.title", text: "webhooks.areaText" },
] as const;

const AREA_KEYS: Record<ActivityArea, string> = {
  bucket: "settings.activity.areas.bucket",
  schema: "settings.activity.areas.schema",
  user: "settings.activity.areas.user",
  invitation: "settings.activity.areas.invitation",
  client: "settings.activity.areas.client",
  webhook: "settings.activity.areas.webhook",
  document: "settings.activity.areas.document",
};

export default function SettingsIndex({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { page, activity } = loaderData;
  return (
    <section className="settings-index">
      <h1>{t("settings.title")}</h1>
      <ul className="bucket-grid settings-areas">
        {AREAS.map((area) => (
          <li key={area.to}>
            <Link to={area.to} className="bucket-card" viewTransition>
              <span className="bucket-name">{t(area.title)}</span>
              <span className="bucket-kind">{t(area.text)}</span>
            </Link>
          </li>
        ))}
      </ul>
      <h2 id="activity">{t("settings.activity.title")}</h2>
      {activity.length === 0 ? (
        <p className="empty">{page > 1 ? t("settings.activity.noMore") : t("settings.activity.empty")}</p>
      ) : (
        <table className="content-table activity-table">
          <thead>
            <tr>
              <th scope="col">{t("settings.activity.when")}</th>
              <th scope="col">{t("settings.activity.who")}</th>
              <th scope="col">{t("settings.activity.what")}</th>
            </tr>
          </thead>
          <tbody>
            {activity.map((entry) => (
              <tr key={entry.id}>
                <td data-label={t("settings.activity.when")}>
                  <DateTime iso={entry.createdAt} />
                </td>
                <td data-label={t("settings.activity.who")}>
                  {entry.actorName ?? <span className="muted">{t("settings.activity.unknownActor")}</span>}
                </td>
                <td data-label={t("settings.activity.what")}>
                  <span className="activity-area">{t(AREA_KEYS[entry.area], { defaultValue: entry.area })}</span>{" "}
                  {t(`settings.activity.actions.${entry.action}`, { defaultValue: entry.action })}{" "}
                  <ActivitySubject subject={entry.subject} href={entry.href} isDocument={entry.area === "document"} />
                  {entry.bucket ? <span className="muted"> {t("settings.activity.inBucket", { bucket: entry.bucket })}</span> : null}
                  {entry.changed.length ? (
                    <span className="muted">
                      {" "}
                      ({entry.changed.map((field) => t(`settings.activity.fields.${field}`, { defaultValue: field })).join(", ")})
                    </span>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pagination
        label={t("settings.activity.pages")}
        position={t("settings.page", { page })}
        previous={page > 1 ? { to: `?page=${page - 1}#activity`, text: t("settings.previous") } : null}
        next={loaderData.hasNext ? { to: `?page=${page + 1}#activity`, text: t("settings.next") } : null}
      />
    </section>
  );
}

/** What a row names: a link while it exists, plain text once it is gone (a document without a title says so). */
function ActivitySubject({ subject, href, isDocument }: { subject: string; href: string | null; isDocument: boolean }) {
  const { t } = useTranslation();
  const text = subject || (isDocument ? t("settings.activity.untitled") : "");
  if (!text) return null;
  return href ? (
    <Link to={href} className="activity-subject">
      {text}
    </Link>
  ) : (
    <strong className="activity-subject">{text}</strong>
  );
}
