import type { RouteHandle } from "../../../core/route-handle";
import { loadBucketEdit, submitBucketEdit } from "./edit.server";
import { BucketEditPage, bucketEditMeta } from "./page";
import type { Route } from "./+types/duplicate";

// /b/{bucket}/duplicate/{contentId}/latest: a new document starting from a copy of that one.

// Without JavaScript a form with media fields posts multipart, its files streamed under their own limits.
export const handle = { streamsBody: true } satisfies RouteHandle;

export const loader = (args: Route.LoaderArgs) => loadBucketEdit(args, "duplicate");
export const action = (args: Route.ActionArgs) => submitBucketEdit(args);
export const meta = bucketEditMeta;
export default BucketEditPage;
