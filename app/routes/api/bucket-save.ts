import { ContentNotFoundError, VersionConflictError } from "../../../server/content/store";
import { BadRequest, jsonError, readJsonBody } from "../../../server/web/api";
import { FORBIDDEN_KEYS } from "../../../core/content/payload";
import { saveDocument, splitDocument, toDocument } from "../../../server/content/save";
import { requireApiBucketAccess } from "../../../server/web/guards";
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
  const forbidden = Object.keys(body).find((key) => FORBIDDEN_KEYS.has(key));
  if (forbidden) return jsonError(`Forbidden property name '${forbidden}'`, 400);
  const content = body.content;
  if (typeof content !== "object" || content === null || Array.isArray(content)) {
    return jsonError("content must be a JSON object", 400);
  }
  if (body.collection !== undefined && typeof body.collection !== "string") {
    return jsonError("collection must be the bucket's collection name (a string)", 400);
  }
  if (body.collection !== undefined && body.collection !== bucket.collectionName) {
    return jsonError(`collection '${body.collection}' does not belong to bucket '${bucket.slug}'`, 400);
  }
  // A contentId or _id of another type must not quietly turn the save into a new document.
  for (const key of ["contentId", "_id"] as const) {
    const id = (content as Record<string, unknown>)[key];
    if (id !== undefined && id !== null && typeof id !== "string") return jsonError(`${key} must be a string`, 400);
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
