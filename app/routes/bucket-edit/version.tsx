import type { RouteHandle } from "../../../core/route-handle";
import { loadBucketEdit, submitBucketEdit } from "./edit.server";
import { BucketEditPage, bucketEditMeta } from "./page";
import type { Route } from "./+types/version";

// /b/{bucket}/{contentId}/{versionId}: one version of a document, linking to the latest.

// Without JavaScript a form with media fields posts multipart, its files streamed under their own limits.
export const handle = { streamsBody: true } satisfies RouteHandle;

export const loader = (args: Route.LoaderArgs) => loadBucketEdit(args, "version");
export const action = (args: Route.ActionArgs) => submitBucketEdit(args);
export const meta = bucketEditMeta;
export default BucketEditPage;
