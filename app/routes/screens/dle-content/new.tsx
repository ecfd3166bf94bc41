import type { RouteHandle } from "../../../../core/route-handle";
import { bucketEditAction, bucketEditLoader } from "../../bucket-edit/edit.server";
import { BucketEditPage, bucketEditMeta } from "../../bucket-edit/page";
import type { Route } from "./+types/new";

// /dle-content/{bucket}/new: a learning environment's content.

export const handle = { streamsBody: true } satisfies RouteHandle;

export const loader = bucketEditLoader("new", "dle-content");
export const action = bucketEditAction("dle-content");
export const meta = bucketEditMeta;

export default function Page({ loaderData, actionData }: Route.ComponentProps) {
  return <BucketEditPage loaderData={loaderData} actionData={actionData} />;
}
