import { useActionData, useLoaderData } from "react-router";
import type { RouteHandle } from "@core/route-handle";
import { bucketEditAction, bucketEditLoader } from "~/routes/bucket-edit/edit.server";
import { BucketEditPage, bucketEditMeta } from "~/routes/bucket-edit/page";
import { loadTrendScreen } from "./trend.server";
import { TREND_SCREEN } from "./components/parts";

// /trend/{bucket}/new: a new trend.

export const handle = { streamsBody: true, messages: ["pages"] } satisfies RouteHandle;

export const loader = bucketEditLoader("new", "trend", loadTrendScreen);
export const action = bucketEditAction("trend");
export const meta = bucketEditMeta;

export default function Page() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return <BucketEditPage loaderData={loaderData} actionData={actionData} screen={TREND_SCREEN} />;
}
