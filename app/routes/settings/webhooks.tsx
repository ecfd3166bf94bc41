import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { requireAdmin } from "@server/web/guards";
import { getRequestState } from "@server/web/request-state";
import { pageRoute } from "@server/web/respond";
import { listWebhooks } from "@server/webhooks/store";
import { translate } from "@core/messages";
import { shownDeliveryStatus } from "@core/webhook-forms";
import { eventKey } from "~/components/settings/webhook-fields";
import { ListHeader } from "~/components/list-tools";
import { formatWhen } from "~/components/when";
import "~/styles/webhooks.css";
import type { Route } from "./+types/webhooks";
import { pageTitle } from "~/lib/page-title";

/* /settings/webhooks: every webhook, what it is sent for, and how its deliveries are doing. */

export const loader = pageRoute(async ({ request, context }: Route.LoaderArgs) => {
  await requireAdmin(request, context);
  const { locale } = await getRequestState(request, context);
  const webhooks = await listWebhooks(context.db);
  return {
    title: translate(locale, "webhooks.title"),
    deleted: new URL(request.url).searchParams.get("deleted")?.slice(0, 2000) ?? null,
    webhooks: webhooks.map((webhook) => ({
      id: webhook.id,
      url: webhook.url,
      events: webhook.events,
      buckets: webhook.allBuckets ? null : webhook.bucketSlugs,
      pending: webhook.pending,
      failed: webhook.failed,
      lastDelivery: webhook.lastDelivery
        ? {
            status: shownDeliveryStatus(webhook.lastDelivery.status, webhook.lastDelivery.attempts),
            at: webhook.lastDelivery.at.toISOString(),
          }
        : null,
    })),
  };
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

export default function Webhooks({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  return (
    <section className="webhooks-page">
      <ListHeader title={t("webhooks.title")} create={{ to: "/settings/webhooks/new", text: t("webhooks.new") }} />
      <p className="account-intro">
        {t("webhooks.intro")} <Link to="/help#webhooks">{t("webhooks.helpLink")}</Link>
      </p>
      {loaderData.deleted ? (
        <p className="notice-success" role="status">
          {t("webhooks.deleted", { url: loaderData.deleted })}
        </p>
      ) : null}
      {loaderData.webhooks.length === 0 ? (
        <p className="empty">{t("webhooks.empty")}</p>
      ) : (
        <ul className="webhook-list">
          {loaderData.webhooks.map((webhook) => (
            <li key={webhook.id} className="webhook-card" data-webhook={webhook.id}>
              <Link to={`/settings/webhooks/${webhook.id}`} className="webhook-url">
                {webhook.url}
              </Link>
              <dl className="webhook-facts">
                <div>
                  <dt>{t("webhooks.columns.events")}</dt>
                  <dd>{webhook.events.map((event) => t(`webhooks.event.${eventKey(event)}`)).join(", ")}</dd>
                </div>
                <div>
                  <dt>{t("webhooks.columns.buckets")}</dt>
                  <dd>
                    {webhook.buckets === null ? (
                      t("webhooks.allBuckets")
                    ) : (
                      <span className="bucket-slugs">{webhook.buckets.join(", ")}</span>
                    )}
                  </dd>
                </div>
                <div>
                  <dt>{t("webhooks.columns.deliveries")}</dt>
                  <dd>
                    {webhook.lastDelivery ? (
                      <span suppressHydrationWarning>
                        {t("webhooks.summary.last", {
                          status: t(`webhooks.status.${webhook.lastDelivery.status}`),
                          date: formatWhen(i18n.language, webhook.lastDelivery.at),
                        })}
                      </span>
                    ) : (
                      <span className="muted">{t("webhooks.summary.none")}</span>
                    )}
                    {webhook.pending ? <span className="tag">{t("webhooks.summary.pending", { count: webhook.pending })}</span> : null}
                    {webhook.failed ? (
                      <span className="tag tag-failed">{t("webhooks.summary.failed", { count: webhook.failed })}</span>
                    ) : null}
                  </dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
