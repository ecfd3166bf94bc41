import type { RouteHandle } from "../../../../core/route-handle";
import { bucketEditAction, bucketEditLoader, latestOrVersion } from "../../bucket-edit/edit.server";
import { BucketEditPage, bucketEditMeta } from "../../bucket-edit/page";
import type { Route } from "./+types/edit";

// /dle-sessies/{bucket}/{contentId}/{latest|versionId}: a session of a learning environment.

export const handle = { streamsBody: true } satisfies RouteHandle;

export const loader = bucketEditLoader(latestOrVersion, "dle-sessies");
export const action = bucketEditAction("dle-sessies");
export const meta = bucketEditMeta;

export default function Page({ loaderData, actionData }: Route.ComponentProps) {
  return <BucketEditPage loaderData={loaderData} actionData={actionData} />;
}
