import { deleteContent, getLatestVersion, getVersion } from "../../../server/content/store";
import { toDocument } from "../../../server/content/save";
import { requireApiBucketAccess } from "../../../server/web/guards";
import { HttpError } from "../../../server/web/http-error";
import { apiRoute, methodNotAllowed } from "../../../server/web/respond";
import { isUuid } from "../../../core/ids";
import type { Route } from "./+types/bucket-content";

const noSuchDocument = () => new HttpError(404, "api.noSuchDocument");

/** GET /api/v1/buckets/{slug}/content/{contentId}/{versionId|latest}: one document. */
export const loader = apiRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const { bucket } = await requireApiBucketAccess(request, context, { slug: params.slug });
  if (!isUuid(params.contentId) || (params.versionId !== "latest" && !isUuid(params.versionId))) throw noSuchDocument();
  const version =
    params.versionId === "latest"
      ? await getLatestVersion(context.db, bucket.id, params.contentId)
      : await getVersion(context.db, bucket.id, params.contentId, params.versionId);
  if (!version) throw noSuchDocument();
  return Response.json(toDocument(version));
});

/** DELETE /api/v1/buckets/{slug}/content/{contentId}/{_id}: only while _id is the latest version. */
export const action = apiRoute(async ({ request, context, params }: Route.ActionArgs) => {
  if (request.method !== "DELETE") throw methodNotAllowed("DELETE", "DELETE");
  const { bucket } = await requireApiBucketAccess(request, context, { slug: params.slug }, "write");
  if (!isUuid(params.contentId) || !isUuid(params.versionId)) throw noSuchDocument();
  await deleteContent(context.db, bucket.id, params.contentId, params.versionId);
  return new Response(null, { status: 204 });
});
