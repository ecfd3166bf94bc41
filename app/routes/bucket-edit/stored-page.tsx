import { HistoryPanel } from "~/components/history/history-panel";
import { MergeNotices } from "~/components/merge/merge-notices";
import { PublishActions } from "~/components/publishing/publish-actions";
import type { FormReply } from "@server/content/save-form";
import type { BucketEditData } from "./edit.server";
import { BucketEditPage, type BucketEditProps } from "./page";

/**
 * The edit page of a stored document: with its history panel, its publication state and actions, and what a merge
 * with someone else's save did, whose code a new document's page does not load.
 */
export function StoredDocumentPage<D extends BucketEditData>(props: Omit<BucketEditProps<D>, "History" | "Publishing">) {
  return <BucketEditPage {...props} History={HistoryPanel} Publishing={StoredDocumentNotices} />;
}

/** Above a stored document's form: its publication state and actions, then what a merge did or asks. */
export function StoredDocumentNotices({
  loaderData,
  actionData,
  formId,
}: {
  loaderData: BucketEditData;
  actionData?: FormReply;
  formId: string;
}) {
  return (
    <>
      <PublishActions loaderData={loaderData} showNotice={!actionData} />
      <MergeNotices loaderData={loaderData} actionData={actionData} formId={formId} />
    </>
  );
}
