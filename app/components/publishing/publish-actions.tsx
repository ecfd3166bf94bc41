import { useState, type MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useFetcher } from "react-router";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { FlashNotice } from "~/components/flash-notice";
import type { BucketEditData } from "~/routes/bucket-edit/edit.server";
import type { loader as publishLoader } from "~/routes/bucket-publish/publish";
import { PublicationBadge } from "./publication-badge";
import { UnpublishedReferences } from "./unpublished-references";
import { useVersionTime } from "~/components/history/format";
import "~/components/publishing/publishing-messages";

type Intent = "publish" | "unpublish";

/** /b/{bucket}/{contentId}/publish: the confirmation page (GET) and the publishing action (POST). */
export const publishPath = (bucketSlug: string, contentId: string) =>
  `/b/${encodeURIComponent(bucketSlug)}/${encodeURIComponent(contentId)}/publish`;

/** /b/{bucket}/{contentId}/release: add the document to a release. */
const releasePath = (bucketSlug: string, contentId: string) =>
  `/b/${encodeURIComponent(bucketSlug)}/${encodeURIComponent(contentId)}/release`;

/** /b/{bucket}/{contentId}/review: ask the publishers for review (POST intent=ask), or close the request (intent=close). */
const reviewPath = (bucketSlug: string, contentId: string) =>
  `/b/${encodeURIComponent(bucketSlug)}/${encodeURIComponent(contentId)}/review`;

/** The document's open request for review: who asked, when, their message; a publisher may close it without publishing. */
function ReviewRequestLine({
  review,
  action,
  canClose,
}: {
  review: NonNullable<BucketEditData["review"]>;
  action: string;
  canClose: boolean;
}) {
  const { t } = useTranslation();
  const time = useVersionTime();
  return (
    <div className="publication-review" role="note">
      <p>
        {t("publishing.review.asked", { name: review.requesterName, when: time(review.createdAt) })}
        {review.note ? <q className="publication-review-note">{review.note}</q> : null}
      </p>
      {canClose ? (
        <Form method="post" action={action}>
          <button type="submit" name="intent" value="close" className="button small">
            {t("publishing.review.close")}
          </button>
        </Form>
      ) : null}
    </div>
  );
}

/** A click that opens the link's page where the user wanted it (a new tab or window), not the dialog. */
const opensElsewhere = (event: MouseEvent) => event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;

/**
 * A stored document's publication state under the edit page's title (docs/publishing.md), with Publish / Unpublish
 * for an editor who may publish. Without JavaScript each is a link to the confirmation page; with it, a dialog asks
 * the same and posts the same form (the version the editor sees) to that page's action, which comes back here with
 * ?published=, shown as a notice. The dialog reads what the confirmation page lists (its loader): the unpublished
 * documents the version refers to, ticked to be published with it; Publish waits for that list.
 * The stored pages pass it (stored-page.tsx): a new document's page loads none of it.
 */
export function PublishActions({ loaderData, showNotice }: { loaderData: BucketEditData; showNotice: boolean }) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState<Intent | null>(null);
  const confirmation = useFetcher<typeof publishLoader>();
  const { publication, contentId, versionId, bucket } = loaderData;
  if (!publication || !contentId || !versionId) return null;
  const { state } = publication;
  const action = publishPath(bucket.slug, contentId);
  // An older version's page publishes the version shown; the latest's, the newest (the confirmation says which).
  const older = loaderData.latestVersionId !== null;
  const olderNumber = older ? (loaderData.history?.page.entries.find((entry) => entry.versionId === versionId)?.number ?? "?") : null;
  const intents: Intent[] = loaderData.canPublish
    ? [
        ...(state === "published" && !older ? [] : ["publish" as const]),
        ...(state === "published" || state === "changed" ? ["unpublish" as const] : []),
      ]
    : [];
  const title = loaderData.title || bucket.name;
  // The list the confirmation page shows, loaded for this opening of the dialog (until then, Publish waits).
  const listed = confirmation.state === "idle" ? confirmation.data : undefined;
  const formId = `publish-dialog-${contentId}`;
  return (
    <>
      <div className="publication-bar">
        <PublicationBadge state={state} />
        {intents.map((intent) => (
          <Link
            key={intent}
            to={intent === "unpublish" ? `${action}?intent=unpublish` : older ? `${action}?versionId=${versionId}` : action}
            className={intent === "publish" ? "button small primary" : "button small"}
            onClick={(event) => {
              if (opensElsewhere(event)) return;
              event.preventDefault();
              setAsking(intent);
              if (intent === "publish") void confirmation.load(`${action}?${new URLSearchParams({ versionId })}`);
            }}
          >
            {t(`publishing.${intent}`)}
          </Link>
        ))}
        {loaderData.canPublish ? (
          <Link to={`${releasePath(bucket.slug, contentId)}${older ? `?versionId=${versionId}` : ""}`} className="button small">
            {t("publishing.addToRelease")}
          </Link>
        ) : state === "published" && !older ? null : (
          // Nothing to review while exhibits show the newest version.
          <Link to={`${reviewPath(bucket.slug, contentId)}${older ? `?versionId=${versionId}` : ""}`} className="button small">
            {t(loaderData.review ? "publishing.review.askAgain" : "publishing.review.ask")}
          </Link>
        )}
        {loaderData.releases.length ? (
          <span className="publication-releases">
            {t("publishing.inRelease")}:{" "}
            {loaderData.releases.map((release, index) => (
              <span key={release.id}>
                {index ? ", " : null}
                <Link to={`/releases/${release.id}`}>{release.name}</Link>
              </span>
            ))}
          </span>
        ) : null}
      </div>
      {loaderData.review ? (
        <ReviewRequestLine review={loaderData.review} action={reviewPath(bucket.slug, contentId)} canClose={loaderData.canPublish} />
      ) : null}
      {showNotice && loaderData.reviewNotice ? (
        <FlashNotice key={`review-${loaderData.reviewNotice}`}>
          {t(loaderData.reviewNotice === "asked" ? "publishing.review.askedNotice" : "publishing.review.closedNotice")}
        </FlashNotice>
      ) : null}
      {showNotice && loaderData.publishedNotice ? (
        <FlashNotice key={loaderData.publishedNotice}>
          {t(loaderData.publishedNotice === "published" ? "publishing.publishedNotice" : "publishing.unpublishedNotice")}
        </FlashNotice>
      ) : null}
      {asking ? (
        <ConfirmDialog
          title={t(asking === "publish" ? "publishing.confirmPublishTitle" : "publishing.confirmUnpublishTitle", { title })}
          onCancel={() => setAsking(null)}
          cancelText={t("publishing.cancel")}
          confirm={
            <Form method="post" action={action} id={formId} onSubmit={() => setAsking(null)}>
              <input type="hidden" name="intent" value={asking} />
              {asking === "publish" ? <input type="hidden" name="versionId" value={versionId} /> : null}
              <button
                type="submit"
                className={asking === "publish" ? "button primary" : "button danger"}
                disabled={asking === "publish" && !listed}
              >
                {t(`publishing.${asking}`)}
              </button>
            </Form>
          }
        >
          <p>
            {asking === "unpublish"
              ? t("publishing.confirmUnpublishText")
              : older
                ? t("publishing.confirmPublishVersionText", { number: olderNumber })
                : t("publishing.confirmPublishText")}
          </p>
          {asking === "publish" && listed?.references.length ? (
            <UnpublishedReferences references={listed.references} form={formId} />
          ) : null}
        </ConfirmDialog>
      ) : null}
    </>
  );
}
