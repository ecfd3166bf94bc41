import { redirect } from "react-router";
import { visibleBuckets } from "../../../server/content/buckets";
import { currentEditPath } from "../../lib/legacy-routes";
import { getRequestState } from "../../../server/web/request-state";
import type { Route } from "./+types/bucket-form";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  // Without a contentId a singleton's legacy form is its one document (/edit), not a second one (/new). Only a
  // bucket the visitor may see says so: for the others the answer does not depend on the bucket.
  if (!params.contentId) {
    const { user, buckets } = await getRequestState(request, context);
    const bucket = visibleBuckets(buckets, user).find((candidate) => candidate.slug === params.bucket);
    if (bucket?.singleton) return redirect(`/b/${encodeURIComponent(bucket.slug)}/edit`, 301);
  }
  return redirect(currentEditPath("b", params.bucket, params.contentId, params.versionId), 301);
}
