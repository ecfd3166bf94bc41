import { useActionData, useLoaderData } from "react-router";
import type { RouteHandle } from "@core/route-handle";
import { bucketEditAction } from "~/routes/bucket-edit/edit.server";
import { BucketEditPage, bucketEditMeta } from "~/routes/bucket-edit/page";
import { dleContentLoader } from "./dle-content.server";
import { DLE_CONTENT_SCREEN } from "./components/parts";

// /dle-content/{bucket}/new: a new learning environment's content (a singleton's: its edit page).

export const handle = { streamsBody: true, messages: ["pages"] } satisfies RouteHandle;

export const loader = dleContentLoader("new");
export const action = bucketEditAction("dle-content");
export const meta = bucketEditMeta;

export default function Page() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return <BucketEditPage loaderData={loaderData} actionData={actionData} screen={DLE_CONTENT_SCREEN} />;
}
