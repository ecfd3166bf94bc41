import type { RouteHandle } from "@core/route-handle";
import { bucketEditLoader, submitBucketEdit } from "./edit.server";
import { bucketEditMeta } from "./page";
import { StoredDocumentPage } from "./stored-page";

// /b/{bucket}/{contentId}/{versionId}: one version of a document, linking to the latest.

// Without JavaScript a form with media fields posts multipart, its files streamed under their own limits.
export const handle = { streamsBody: true } satisfies RouteHandle;

export const loader = bucketEditLoader("version");
export const action = submitBucketEdit;
export const meta = bucketEditMeta;
export default StoredDocumentPage;
