import { redirect } from "react-router";
import { visibleBuckets } from "@server/content/buckets";
import { currentEditPath } from "~/lib/legacy-routes";
import { getRequestState } from "@server/web/request-state";
import { documentPath, newDocumentPath, singletonPath } from "@core/content/screens";
import type { Route } from "./+types/bucket-form";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  // A bucket the visitor may see has its pages on its screen, and without a contentId a singleton's legacy form is
  // its one document (/edit), not a second one (/new). For other buckets the answer does not depend on the bucket.
  const { user, buckets } = await getRequestState(request, context);
  const bucket = visibleBuckets(buckets, user).find((candidate) => candidate.slug === params.bucket);
  if (bucket && !params.contentId) return redirect(bucket.singleton ? singletonPath(bucket) : newDocumentPath(bucket), 301);
  if (bucket && params.contentId) return redirect(documentPath(bucket, params.contentId, params.versionId), 301);
  return redirect(currentEditPath("b", params.bucket, params.contentId, params.versionId), 301);
}
