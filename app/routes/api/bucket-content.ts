import { deleteContent, getLatestVersion, getVersion, ContentNotFoundError, VersionConflictError } from "../../../server/content/store";
import { jsonError } from "../../../server/web/api";
import { toDocument } from "../../../server/content/save";
import { requireApiBucketAccess } from "../../../server/web/guards";
import { isUuid } from "../../../core/ids";
import type { Route } from "./+types/bucket-content";

/** GET /api/v1/buckets/{slug}/content/{contentId}/{versionId|latest}: one document. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { bucket } = await requireApiBucketAccess(request, context, { slug: params.slug });
  if (!isUuid(params.contentId) || (params.versionId !== "latest" && !isUuid(params.versionId))) {
    return jsonError("No such document", 404);
  }
  const version =
    params.versionId === "latest"
      ? await getLatestVersion(context.db, bucket.id, params.contentId)
      : await getVersion(context.db, bucket.id, params.contentId, params.versionId);
  if (!version) return jsonError("No such document", 404);
  return Response.json(toDocument(version));
}

/** DELETE /api/v1/buckets/{slug}/content/{contentId}/{_id}: only while _id is the latest version. */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "DELETE") return jsonError("Method not allowed: DELETE", 405);
  const { bucket } = await requireApiBucketAccess(request, context, { slug: params.slug });
  if (!isUuid(params.contentId) || !isUuid(params.versionId)) return jsonError("No such document", 404);
  try {
    await deleteContent(context.db, bucket.id, params.contentId, params.versionId);
    return new Response(null, { status: 204 });
  } catch (error) {
    if (error instanceof ContentNotFoundError) return jsonError("No such document", 404);
    if (error instanceof VersionConflictError) {
      return Response.json({ error: "DOCUMENT_VERSION_CONFLICT", latestVersionId: error.latestVersionId }, { status: 409 });
    }
    throw error;
  }
}
