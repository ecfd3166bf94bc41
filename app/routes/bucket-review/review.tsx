import { useTranslation } from "react-i18next";
import { data, Form, redirect } from "react-router";
import { askForReview, closeReview, openReviewOf } from "@server/content/reviews";
import { mailReviewers } from "@server/content/review-mail";
import { publicationOf } from "@server/content/publication-state";
import { pageRoute } from "@server/web/respond";
import { formText, readForm } from "@server/web/read-form";
import { getRequestState, interfaceBucketName } from "@server/web/request-state";
import { requireBucketAccess } from "@server/web/guards";
import { HttpError } from "@server/errors";
import { savedDocumentPath } from "@core/content/screens";
import { documentTitle } from "@core/content/title";
import { mayPublish, REVIEW_NOTE_MAX } from "@core/content/publication";
import { isUuid } from "@core/ids";
import { pageTitle } from "~/lib/page-title";
import { PublicationBadge } from "~/components/publishing/publication-badge";
import { versionToPublish } from "../bucket-publish/publish.server";
import type { Route } from "./+types/review";
import "~/components/publishing/publishing-messages";
import { SubmitOrCancel } from "~/components/submit-or-cancel";

/*
 * /b/{bucket}/{contentId}/review (docs/publishing.md, "Asking for review"). GET: the request's page (a message to the
 * publishers, optional). POST intent=ask (versionId: the version the editor saw, empty for the newest; note): opens
 * the document's request or moves it, tells the bucket's publishers by mail where mail is set up, and goes back to
 * the document. POST intent=close: a publisher closes the request without publishing (anyone else gets 403).
 * Anyone who may open the bucket may ask.
 */

async function requireDocument(request: Request, context: Route.LoaderArgs["context"], params: Route.LoaderArgs["params"]) {
  const { user, bucket } = await requireBucketAccess(request, context, params.bucket);
  const contentId = params.contentId;
  if (!isUuid(contentId)) throw new HttpError(404, "errors.notFound");
  const publication = await publicationOf(context.db, bucket.id, contentId);
  if (!publication) throw new HttpError(404, "errors.notFound");
  return { user, bucket, contentId, publication };
}

export const loader = pageRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const { bucket, contentId, publication } = await requireDocument(request, context, params);
  const version = await versionToPublish(context, bucket, contentId, publication, new URL(request.url).searchParams.get("versionId") ?? "");
  return {
    bucketName: await interfaceBucketName(request, context, bucket),
    title: documentTitle(version.data, bucket.jsonSchema, bucket.locales),
    state: publication.state,
    versionId: version.versionId,
    documentPath: savedDocumentPath(bucket, contentId),
    open: await openReviewOf(context.db, contentId),
  };
});

export const action = pageRoute(async ({ request, context, params }: Route.ActionArgs) => {
  const { user, bucket, contentId, publication } = await requireDocument(request, context, params);
  const form = await readForm(request);
  const actor = { id: user.id, name: user.name };
  const documentPath = savedDocumentPath(bucket, contentId);
  if (formText(form, "intent") === "close") {
    if (!mayPublish(user.permissions)) throw new HttpError(403, "errors.publishForbidden");
    const version = await versionToPublish(context, bucket, contentId, publication, "");
    await closeReview(context.db, actor, { bucket, contentId, title: documentTitle(version.data, bucket.jsonSchema, bucket.locales) });
    throw redirect(`${documentPath}?review=closed`);
  }
  const note = formText(form, "note");
  // Counted as the browser's maxlength counts (UTF-16 units), after the same trim the store makes.
  if (note.trim().length > REVIEW_NOTE_MAX) return data({ error: "publishing.review.noteTooLong", note }, { status: 422 });
  const version = await versionToPublish(context, bucket, contentId, publication, formText(form, "versionId"));
  const { title } = await askForReview(context.db, actor, { bucket, contentId, versionId: version.versionId, note });
  await mailReviewers(context, {
    bucket,
    title,
    note: note.trim(),
    requester: actor,
    link: new URL(documentPath, context.config.PUBLIC_URL ?? new URL(request.url).origin).toString(),
    fallbackLocale: (await getRequestState(request, context)).locale,
  });
  throw redirect(`${documentPath}?review=asked`);
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title || loaderData.bucketName);

export default function AskForReview({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const name = loaderData.title || loaderData.bucketName;
  return (
    <section className="publish-confirm">
      <p className="eyebrow">{loaderData.bucketName}</p>
      <h1>{t("publishing.review.askTitle", { title: name })}</h1>
      <p>
        <PublicationBadge state={loaderData.state} />
      </p>
      <p>{t("publishing.review.askText")}</p>
      <Form method="post" className="review-form">
        <input type="hidden" name="intent" value="ask" />
        <input type="hidden" name="versionId" value={loaderData.versionId} />
        <div className="field">
          <label htmlFor="review-note">{t("publishing.review.note")}</label>
          <textarea
            id="review-note"
            name="note"
            rows={4}
            maxLength={REVIEW_NOTE_MAX}
            defaultValue={actionData?.note ?? loaderData.open?.note ?? ""}
            aria-describedby="review-note-hint"
            aria-invalid={actionData?.error ? true : undefined}
            aria-errormessage={actionData?.error ? "review-note-error" : undefined}
          />
          <p className="field-note" id="review-note-hint">
            {t("publishing.review.noteHint")}
          </p>
          {actionData?.error ? (
            <p className="field-error" id="review-note-error" role="alert">
              {t(actionData.error)}
            </p>
          ) : null}
        </div>
        <SubmitOrCancel
          className="form-actions"
          submit={t("publishing.review.send")}
          cancel={t("publishing.review.cancel")}
          cancelTo={loaderData.documentPath}
        />
      </Form>
    </section>
  );
}
