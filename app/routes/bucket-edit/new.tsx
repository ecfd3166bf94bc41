import type { RouteHandle } from "@core/route-handle";
import { bucketEditLoader, submitBucketEdit } from "./edit.server";
import { BucketEditPage, bucketEditMeta } from "./page";

// /b/{bucket}/new: a new document.

// Without JavaScript a form with media fields posts multipart, its files streamed under their own limits.
export const handle = { streamsBody: true } satisfies RouteHandle;

export const loader = bucketEditLoader("new");
export const action = submitBucketEdit;
export const meta = bucketEditMeta;
export default BucketEditPage;
