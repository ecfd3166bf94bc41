import type { ComponentProps } from "react";
import { HistoryPanel } from "../../components/history/history-panel";
import { BucketEditPage } from "./page";

/** The edit page of a stored document: with its history panel, whose code a new document's page does not load. */
export function StoredDocumentPage(props: Omit<ComponentProps<typeof BucketEditPage>, "History">) {
  return <BucketEditPage {...props} History={HistoryPanel} />;
}
