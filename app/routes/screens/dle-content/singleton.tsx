import type { RouteHandle } from "../../../../core/route-handle";
import { bucketEditAction, bucketEditLoader } from "../../bucket-edit/edit.server";
import { BucketEditPage, bucketEditMeta } from "../../bucket-edit/page";
import type { Route } from "./+types/singleton";

// /dle-content/{bucket}/edit: the learning environment's content, a singleton.

export const handle = { streamsBody: true } satisfies RouteHandle;

export const loader = bucketEditLoader("singleton", "dle-content");
export const action = bucketEditAction("dle-content");
export const meta = bucketEditMeta;

export default function Page({ loaderData, actionData }: Route.ComponentProps) {
  return <BucketEditPage loaderData={loaderData} actionData={actionData} />;
}
