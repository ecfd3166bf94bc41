import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { compareVersions, listHistory } from "@server/content/history";
import { requireBucketAccess } from "@server/web/guards";
import { HttpError } from "@server/errors";
import { pageRoute } from "@server/web/respond";
import { historyPaths } from "@core/content/history";
import { HistoryList } from "~/components/history/history-list";
import { VersionCompare } from "~/components/history/version-compare";
import { historyHeader } from "./history.server";
import { historyMeta } from "./meta";
import { overviewPath } from "@core/content/screens";
import type { Route } from "./+types/compare";
import "~/components/history/history-messages";

/*
 * /b/{bucket}/{contentId}/compare?a={versionId}&b={versionId}: two versions of a document, field by field, older first.
 * Without a and b: the versions to choose two from (the history's GET form, the newest against the one before).
 */

export const loader = pageRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const target = await requireBucketAccess(request, context, params.bucket);
  const header = await historyHeader(request, context, target, params.contentId);
  const search = new URL(request.url).searchParams;
  if (!search.has("a") && !search.has("b")) {
    const history = await listHistory(context.db, target.bucket.id, header.contentId, Number(search.get("page") ?? "1"));
    if (!history) throw new HttpError(404, "errors.notFound");
    return { ...header, comparison: null, history };
  }
  const comparison = await compareVersions(context, target, header.contentId, [search.get("a") ?? "", search.get("b") ?? ""]);
  if (!comparison) throw new HttpError(404, "errors.notFound");
  return { ...header, comparison, history: null };
});

export const meta = historyMeta;

export default function ComparePage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { bucket, comparison } = loaderData;
  const paths = historyPaths(bucket.slug, loaderData.contentId);
  return (
    <section className="bucket-compare">
      <p className="eyebrow">{bucket.singleton ? bucket.name : <Link to={overviewPath(bucket)}>{bucket.name}</Link>}</p>
      <h1>
        {comparison ? t("history.compareTitle", { from: comparison.before.number, to: comparison.after.number }) : t("history.chooseTitle")}
      </h1>
      <p className="history-links">
        <Link to={loaderData.documentPath}>{t("history.backToDocument")}</Link>
        {" · "}
        <Link to={paths.history()}>{t("history.allVersions")}</Link>
      </p>
      {comparison ? <VersionCompare comparison={comparison} versionPath={paths.version} /> : null}
      {loaderData.history ? <HistoryList bucketSlug={bucket.slug} history={loaderData.history} schemaLink={loaderData.schemaLink} /> : null}
    </section>
  );
}
