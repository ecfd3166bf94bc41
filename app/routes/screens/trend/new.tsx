import type { RouteHandle } from "@core/route-handle";
import { bucketEditAction, bucketEditLoader } from "~/routes/bucket-edit/edit.server";
import { BucketEditPage, bucketEditMeta } from "~/routes/bucket-edit/page";
import { loadTrendScreen } from "./trend.server";
import { TREND_SCREEN } from "./parts";
import type { Route } from "./+types/new";

// /trend/{bucket}/new: a new trend.

export const handle = { streamsBody: true, messages: ["pages"] } satisfies RouteHandle;

export const loader = bucketEditLoader("new", "trend", loadTrendScreen);
export const action = bucketEditAction("trend");
export const meta = bucketEditMeta;

export default function Page({ loaderData, actionData }: Route.ComponentProps) {
  return <BucketEditPage loaderData={loaderData} actionData={actionData} screen={TREND_SCREEN} />;
}
