import type { RouteHandle } from "../../../core/route-handle";
import { loadBucketEdit, submitBucketEdit } from "./edit.server";
import { BucketEditPage, bucketEditMeta } from "./page";
import type { Route } from "./+types/singleton";

// /b/{bucket}/edit: the one document of a singleton bucket (404 for other buckets).

// Without JavaScript a form with media fields posts multipart, its files streamed under their own limits.
export const handle = { streamsBody: true } satisfies RouteHandle;

export const loader = (args: Route.LoaderArgs) => loadBucketEdit(args, "singleton");
export const action = (args: Route.ActionArgs) => submitBucketEdit(args);
export const meta = bucketEditMeta;
export default BucketEditPage;
