import { useActionData, useLoaderData } from "react-router";
import type { RouteHandle } from "@core/route-handle";
import { bucketEditAction, bucketEditLoader, latestOrVersion } from "~/routes/bucket-edit/edit.server";
import { bucketEditMeta } from "~/routes/bucket-edit/page";
import { StoredDocumentPage } from "~/routes/bucket-edit/stored-page";
import { loadTrendScreen } from "./trend.server";
import { TREND_SCREEN } from "./components/parts";

// /trend/{bucket}/{contentId}/{latest|versionId}: a trend, with the documents that use it beside it.

export const handle = { streamsBody: true, messages: ["pages"] } satisfies RouteHandle;

export const loader = bucketEditLoader(latestOrVersion, "trend", loadTrendScreen);
export const action = bucketEditAction("trend");
export const meta = bucketEditMeta;

export default function Page() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return <StoredDocumentPage loaderData={loaderData} actionData={actionData} screen={TREND_SCREEN} />;
}
