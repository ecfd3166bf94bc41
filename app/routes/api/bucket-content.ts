import { deleteDocumentCall, readDocumentCall } from "@server/web/content-calls";
import { apiRoute } from "@server/web/respond";
import type { Route } from "./+types/bucket-content";

/** GET /api/v1/buckets/{slug}/content/{contentId}/{versionId|latest}: one document (also server/web/hot-api.ts). */
export const loader = apiRoute(({ request, context, params }: Route.LoaderArgs) => readDocumentCall(request, context, params));

/** DELETE /api/v1/buckets/{slug}/content/{contentId}/{_id}: only while _id is the latest version. */
export const action = apiRoute(({ request, context, params }: Route.ActionArgs) => deleteDocumentCall(request, context, params));
