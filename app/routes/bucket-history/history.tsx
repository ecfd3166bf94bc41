import { useTranslation } from "react-i18next";
import { data, Link, redirect } from "react-router";
import { ContentNotFoundError } from "@server/content/store";
import { historyEntries, listHistory, restoreVersion } from "@server/content/history";
import { requireBucketAccess } from "@server/web/guards";
import { HttpError } from "@server/errors";
import { pageRoute } from "@server/web/respond";
import { HistoryList } from "~/components/history/history-list";
import { historyHeader } from "./history.server";
import { historyMeta } from "./meta";
import { mayPublish } from "@core/content/publication";
import { documentPath, overviewPath, savedDocumentPath } from "@core/content/screens";
import type { Route } from "./+types/history";
import { readForm } from "@server/web/read-form";
import { getRequestState } from "@server/web/request-state";
import "~/components/history/history-messages";

/*
 * /b/{bucket}/{contentId}/history: every version of a document, 20 a page (?page=2 …), to open, compare and restore.
 * POST (versionId, base): restores that version as a new version on top of `base`, the latest the editor saw.
 */

const notFound = () => new HttpError(404, "errors.notFound");

export const loader = pageRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const target = await requireBucketAccess(request, context, params.bucket);
  const header = await historyHeader(request, context, target, params.contentId);
  const page = Number(new URL(request.url).searchParams.get("page") ?? "1");
  const history = await listHistory(context.db, target.bucket.id, header.contentId, page);
  if (!history) throw notFound();
  return { ...header, history, canPublish: mayPublish(target.user.permissions) };
});

export const action = pageRoute(async ({ request, context, params }: Route.ActionArgs) => {
  const target = await requireBucketAccess(request, context, params.bucket);
  const { bucket } = target;
  const form = await readForm(request);
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const contentId = params.contentId;
  const versionId = field("versionId");
  try {
    const { locale } = await getRequestState(request, context);
    const outcome = await restoreVersion(context, { ...target, locale }, { contentId, versionId, baseVersionId: field("base") });
    if (outcome.kind === "restored") {
      // The notice names the restored version by its number in the history panel ("Version 2 restored").
      const [restored] = await historyEntries(context.db, bucket.id, contentId, [versionId]);
      return redirect(`${savedDocumentPath(bucket, contentId)}?${restored ? `restored=${restored.number}` : "saved"}`);
    }
    // A version that no longer passes the checks opens on its own page, where its errors show and saving restores it.
    if (outcome.kind === "invalid") return redirect(`${documentPath(bucket, contentId, versionId)}?restore=invalid`);
    return data({ conflict: true }, { status: 409 });
  } catch (error) {
    if (error instanceof ContentNotFoundError) throw notFound();
    throw error;
  }
});

export const meta = historyMeta;

export default function HistoryPageRoute({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { bucket, history } = loaderData;
  return (
    <section className="bucket-history">
      <p className="eyebrow">{bucket.singleton ? bucket.name : <Link to={overviewPath(bucket)}>{bucket.name}</Link>}</p>
      <h1>{t("history.pageTitle", { title: loaderData.title || bucket.name })}</h1>
      <p>
        <Link to={loaderData.documentPath}>{t("history.backToDocument")}</Link>
      </p>
      {actionData?.conflict ? (
        <p className="form-error" role="alert">
          {t("history.restoreConflict")}
        </p>
      ) : null}
      <HistoryList bucketSlug={bucket.slug} history={history} schemaLink={loaderData.schemaLink} canPublish={loaderData.canPublish} />
    </section>
  );
}
