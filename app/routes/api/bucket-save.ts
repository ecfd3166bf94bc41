import { submitJsonDocument } from "../../../server/content/submit-json";
import { jsonError } from "../../../server/web/api";
import { requireApiBucketAccess } from "../../../server/web/guards";
import type { Route } from "./+types/bucket-save";

export function loader() {
  return jsonError("Method not allowed: POST {content, collection}", 405);
}

/** POST /api/v1/buckets/{slug}/save {content, collection} → the saved content with contentId. */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return jsonError("Method not allowed: POST {content, collection}", 405);
  return submitJsonDocument(request, context, await requireApiBucketAccess(request, context, { slug: params.slug }));
}
