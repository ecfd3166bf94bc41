import { HistoryPanel } from "~/components/history/history-panel";
import { PublishActions } from "~/components/publishing/publish-actions";
import type { BucketEditData } from "./edit.server";
import { BucketEditPage, type BucketEditProps } from "./page";

/**
 * The edit page of a stored document: with its history panel and its publication state and actions, whose code a
 * new document's page does not load.
 */
export function StoredDocumentPage<D extends BucketEditData>(props: Omit<BucketEditProps<D>, "History" | "Publishing">) {
  return <BucketEditPage {...props} History={HistoryPanel} Publishing={PublishActions} />;
}
