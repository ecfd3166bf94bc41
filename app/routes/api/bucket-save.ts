import { saveDocumentCall, saveNotAllowed } from "@server/web/content-calls";
import { apiRoute } from "@server/web/respond";
import type { Route } from "./+types/bucket-save";

export const loader = apiRoute(() => {
  throw saveNotAllowed();
});

/** POST /api/v1/buckets/{slug}/save {content, collection} → the saved content with contentId (also server/web/hot-api.ts). */
export const action = apiRoute(({ request, context, params }: Route.ActionArgs) => saveDocumentCall(request, context, params));
