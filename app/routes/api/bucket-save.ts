import { ContentNotFoundError, VersionConflictError } from "../../../server/services/content";
import { BadRequest, jsonError, readJsonBody } from "../../lib/api.server";
import { saveDocument, splitDocument, toDocument } from "../../lib/content.server";
import { requireApiBucketAccess } from "../../lib/guards.server";
import type { Route } from "./+types/bucket-save";

export function loader() {
  return jsonError("Method not allowed: POST {content, collection}", 405);
}

/** POST /api/v1/buckets/{slug}/save {content, collection} → the saved content with contentId. */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return jsonError("Method not allowed: POST {content, collection}", 405);
  const { user, bucket } = await requireApiBucketAccess(request, context, { slug: params.slug });
  let body: Record<string, unknown>;
  try {
    body = await readJsonBody(request);
  } catch (error) {
    if (error instanceof BadRequest) return jsonError(error.message, 400);
    throw error;
  }
  const content = body.content;
  if (typeof content !== "object" || content === null || Array.isArray(content)) {
    return jsonError("content must be a JSON object", 400);
  }
  if (body.collection !== undefined && body.collection !== bucket.collectionName) {
    return jsonError(`collection '${String(body.collection)}' does not belong to bucket '${bucket.slug}'`, 400);
  }
  const { contentId, baseVersionId, data } = splitDocument(content as Record<string, unknown>);
  try {
    const outcome = await saveDocument(context, user, bucket, { contentId, baseVersionId, data });
    if (!outcome.ok) return Response.json({ error: outcome.message, errors: outcome.errors.byField, locales: outcome.errors.locales }, { status: outcome.status });
    return Response.json(toDocument(outcome.version), { status: contentId ? 200 : 201 });
  } catch (error) {
    if (error instanceof VersionConflictError) {
      return Response.json(
        { error: "DOCUMENT_VERSION_CONFLICT", message: "Someone else saved this document in the meantime.", latestVersionId: error.latestVersionId },
        { status: 409 },
      );
    }
    if (error instanceof ContentNotFoundError) return jsonError(error.message, 404);
    throw error;
  }
}
