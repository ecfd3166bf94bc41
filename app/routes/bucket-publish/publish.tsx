import { useTranslation } from "react-i18next";
import { Form, Link, redirect } from "react-router";
import { publishWithReferences, unpublishDocument } from "@server/content/publishing";
import { unpublishedReferences } from "@server/content/unpublished-references";
import { historyEntries } from "@server/content/history";
import { pageRoute } from "@server/web/respond";
import { readForm } from "@server/web/read-form";
import { HttpError } from "@server/errors";
import { savedDocumentPath } from "@core/content/screens";
import { documentTitle } from "@core/content/title";
import { interfaceBucketName } from "@server/web/request-state";
import { pageTitle } from "~/lib/page-title";
import { PublicationBadge } from "~/components/publishing/publication-badge";
import { UnpublishedReferences } from "~/components/publishing/unpublished-references";
import { requirePublishing, versionToPublish } from "./publish.server";
import type { Route } from "./+types/publish";
import "~/components/publishing/publishing-messages";

/*
 * /b/{bucket}/{contentId}/publish (docs/publishing.md). GET: the confirmation without JavaScript (?intent=unpublish,
 * ?versionId= for an older version); the edit page asks the same in a dialog. POST (intent publish|unpublish,
 * versionId: the version the editor saw, empty for the newest; include: unpublished documents it references, published
 * with it in one transaction): changes what exhibits get, then back to the document.
 * Only users who may publish (the `publish` permission, or admins); anyone else gets 403.
 */

const intentOf = (value: unknown) => (value === "unpublish" ? "unpublish" : "publish");

export const loader = pageRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const { user, bucket, contentId, publication } = await requirePublishing(request, context, params);
  const search = new URL(request.url).searchParams;
  const intent = intentOf(search.get("intent"));
  const version = await versionToPublish(context, bucket, contentId, publication, search.get("versionId") ?? "");
  const [entry] = await historyEntries(context.db, bucket.id, contentId, [version.versionId]);
  const references = intent === "publish" ? await unpublishedReferences(context.db, user, bucket, version.data) : [];
  return {
    intent,
    bucketName: await interfaceBucketName(request, context, bucket),
    title: documentTitle(version.data, bucket.jsonSchema, bucket.locales),
    versionId: version.versionId,
    versionNumber: entry?.number ?? null,
    newest: version.versionId === publication.latestVersionId,
    state: publication.state,
    documentPath: savedDocumentPath(bucket, contentId),
    references: await Promise.all(
      references.map(async (reference) => ({
        contentId: reference.contentId,
        title: reference.title,
        state: reference.state,
        bucketName: await interfaceBucketName(request, context, reference.bucket),
      })),
    ),
  };
});

export const action = pageRoute(async ({ request, context, params }: Route.ActionArgs) => {
  const { user, bucket, contentId, publication } = await requirePublishing(request, context, params);
  const form = await readForm(request);
  const asked = form.get("versionId");
  if (intentOf(form.get("intent")) === "unpublish") {
    await unpublishDocument(context.db, { id: user.id, name: user.name }, { bucket, contentId });
    return redirect(`${savedDocumentPath(bucket, contentId)}?published=unpublished`);
  }
  if (asked !== null && typeof asked !== "string") throw new HttpError(400, "api.formUnreadable");
  const version = await versionToPublish(context, bucket, contentId, publication, asked ?? "");
  const include = form.getAll("include").filter((value): value is string => typeof value === "string");
  await publishWithReferences(context.db, user, { bucket, contentId, versionId: version.versionId, data: version.data }, include);
  return redirect(`${savedDocumentPath(bucket, contentId)}?published=published`);
});

export function meta({ loaderData, matches }: Route.MetaArgs) {
  return pageTitle(matches, loaderData.title || loaderData.bucketName);
}

export default function PublishPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { intent, title, versionNumber, newest } = loaderData;
  const name = title || loaderData.bucketName;
  return (
    <section className="publish-confirm">
      <p className="eyebrow">{loaderData.bucketName}</p>
      <h1>{t(intent === "publish" ? "publishing.confirmPublishTitle" : "publishing.confirmUnpublishTitle", { title: name })}</h1>
      <p>
        <PublicationBadge state={loaderData.state} />
      </p>
      <p>
        {intent === "unpublish"
          ? t("publishing.confirmUnpublishText")
          : newest
            ? t("publishing.confirmPublishText")
            : t("publishing.confirmPublishVersionText", { number: versionNumber ?? "?" })}
      </p>
      <Form method="post">
        {loaderData.references.length ? <UnpublishedReferences references={loaderData.references} /> : null}
        <div className="form-actions">
          <input type="hidden" name="intent" value={intent} />
          {intent === "publish" ? <input type="hidden" name="versionId" value={loaderData.versionId} /> : null}
          <button type="submit" className={intent === "publish" ? "button primary" : "button danger"}>
            {t(intent === "publish" ? "publishing.publish" : "publishing.unpublish")}
          </button>
          <Link to={loaderData.documentPath} className="button">
            {t("publishing.cancel")}
          </Link>
        </div>
      </Form>
    </section>
  );
}
