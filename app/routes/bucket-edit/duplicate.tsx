import type { RouteHandle } from "@core/route-handle";
import { bucketEditLoader, submitDuplicate } from "./edit.server";
import { BucketEditPage, bucketEditMeta } from "./page";

// /b/{bucket}/duplicate/{contentId}/latest: a new document starting from a copy of that one.

// Without JavaScript a form with media fields posts multipart, its files streamed under their own limits.
export const handle = { streamsBody: true } satisfies RouteHandle;

export const loader = bucketEditLoader("duplicate");
export const action = submitDuplicate;
export const meta = bucketEditMeta;
export default BucketEditPage;
