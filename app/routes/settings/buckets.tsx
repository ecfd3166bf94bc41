import { useTranslation } from "react-i18next";
import { dateTimeFormat } from "@core/date-formats";
import { Link } from "react-router";
import { requireAdmin } from "@server/web/guards";
import { listAdminBuckets } from "@server/content/bucket-admin";
import { getRequestState } from "@server/web/request-state";
import { translate } from "@core/messages";
import { ImportForm } from "~/components/bucket-admin/import-form";
import { ListHeader } from "~/components/list-tools";
import type { Route } from "./+types/buckets";
import { bucketName } from "@core/content/bucket-name";
import { pageTitle } from "~/lib/page-title";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const { locale } = await getRequestState(request, context);
  const buckets = await listAdminBuckets(context.db);
  const deleted = new URL(request.url).searchParams.get("deleted");
  return {
    title: translate(locale, "adminBuckets.list.title"),
    buckets: buckets.map((bucket) => ({ ...bucket, name: bucketName(bucket, locale), lastChange: bucket.lastChange.toISOString() })),
    deleted,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

/** /settings/buckets: every bucket (private ones too), a link to each, a new bucket and the import. */
export default function BucketList({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const format = dateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
  const yes = t("adminBuckets.list.yes");
  return (
    <section className="bucket-admin">
      <p className="eyebrow">
        <Link to="/settings">{t("nav.settings")}</Link>
      </p>
      <ListHeader title={t("adminBuckets.list.title")} create={{ to: "/settings/buckets/new", text: t("adminBuckets.list.new") }} />
      {loaderData.deleted ? (
        <p className="notice-success" role="status">
          {t("adminBuckets.list.deleted", { slug: loaderData.deleted })}
        </p>
      ) : null}
      {loaderData.buckets.length === 0 ? (
        <p className="empty">{t("adminBuckets.list.none")}</p>
      ) : (
        <div className="table-scroll">
          <table className="content-table admin-table bucket-table">
            <thead>
              <tr>
                <th scope="col">{t("adminBuckets.fields.name")}</th>
                <th scope="col">{t("adminBuckets.fields.slug")}</th>
                <th scope="col">{t("adminBuckets.fields.singleton")}</th>
                <th scope="col">{t("adminBuckets.fields.private")}</th>
                <th scope="col">{t("adminBuckets.fields.locales")}</th>
                <th scope="col" className="number">
                  {t("adminBuckets.list.documents")}
                </th>
                <th scope="col">{t("adminBuckets.list.lastChange")}</th>
              </tr>
            </thead>
            <tbody>
              {loaderData.buckets.map((bucket) => (
                <tr key={bucket.id}>
                  <td data-label={t("adminBuckets.fields.name")}>
                    <Link to={`/settings/buckets/${encodeURIComponent(bucket.slug)}`}>{bucket.name}</Link>
                  </td>
                  <td data-label={t("adminBuckets.fields.slug")}>
                    <code>{bucket.slug}</code>
                  </td>
                  <td data-label={t("adminBuckets.fields.singleton")}>{bucket.singleton ? yes : ""}</td>
                  <td data-label={t("adminBuckets.fields.private")}>{bucket.private ? yes : ""}</td>
                  <td data-label={t("adminBuckets.fields.locales")}>{bucket.locales.join(", ")}</td>
                  <td data-label={t("adminBuckets.list.documents")} className="number">
                    {bucket.contentCount}
                  </td>
                  <td data-label={t("adminBuckets.list.lastChange")}>
                    <time dateTime={bucket.lastChange}>{format.format(new Date(bucket.lastChange))}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ImportForm />
    </section>
  );
}
