import { HistoryPanel } from "~/components/history/history-panel";
import type { BucketEditData } from "./edit.server";
import { BucketEditPage, type BucketEditProps } from "./page";

/** The edit page of a stored document: with its history panel, whose code a new document's page does not load. */
export function StoredDocumentPage<D extends BucketEditData>(props: Omit<BucketEditProps<D>, "History">) {
  return <BucketEditPage {...props} History={HistoryPanel} />;
}
