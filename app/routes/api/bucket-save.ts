import { submitJsonDocument } from "../../../server/content/submit-json";
import { requireApiBucketAccess } from "../../../server/web/guards";
import { apiRoute, methodNotAllowed } from "../../../server/web/respond";
import type { Route } from "./+types/bucket-save";

const notAllowed = () => methodNotAllowed("POST", "POST {content, collection}");

export const loader = apiRoute(() => {
  throw notAllowed();
});

/** POST /api/v1/buckets/{slug}/save {content, collection} → the saved content with contentId. */
export const action = apiRoute(async ({ request, context, params }: Route.ActionArgs) => {
  if (request.method !== "POST") throw notAllowed();
  return submitJsonDocument(request, context, await requireApiBucketAccess(request, context, { slug: params.slug }, "write"));
});
