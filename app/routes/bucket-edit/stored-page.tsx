import { HistoryPanel } from "~/components/history/history-panel";
import { MergeNotices } from "~/components/merge/merge-notices";
import { PresencePanel } from "~/components/presence/presence-panel";
import { PublishActions } from "~/components/publishing/publish-actions";
import { savedDocumentPath } from "@core/content/screens";
import type { FormReply } from "@server/content/save-form";
import type { BucketEditData } from "./edit.server";
import { BucketEditPage, type BucketEditProps } from "./page";

/**
 * The edit page of a stored document: with who else has it open, its history panel, its publication state and
 * actions, and what a merge with someone else's save did, whose code a new document's page does not load.
 */
export function StoredDocumentPage<D extends BucketEditData>(props: Omit<BucketEditProps<D>, "History" | "Publishing">) {
  return <BucketEditPage {...props} History={HistoryPanel} Publishing={StoredDocumentNotices} />;
}

/** Above a stored document's form: who else is here, its publication state and actions, then what a merge did or asks. */
export function StoredDocumentNotices({
  loaderData,
  actionData,
  formId,
}: {
  loaderData: BucketEditData;
  actionData?: FormReply;
  formId: string;
}) {
  const { presence, contentId, bucket } = loaderData;
  return (
    <>
      {presence && contentId && (
        <PresencePanel
          key={presence.pageId}
          presence={presence}
          bucketSlug={bucket.slug}
          contentId={contentId}
          latestPath={savedDocumentPath(bucket, contentId)}
          formId={formId}
          merging={actionData?.notice === "merge" || actionData?.notice === "conflict"}
        />
      )}
      <PublishActions loaderData={loaderData} showNotice={!actionData} />
      <MergeNotices loaderData={loaderData} actionData={actionData} formId={formId} />
    </>
  );
}
