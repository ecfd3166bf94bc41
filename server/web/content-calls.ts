import type { AppLoadContext } from "react-router";
import { deleteContent, getLatestVersion, getVersion } from "../content/store";
import { toDocument } from "../content/save";
import { submitJsonDocument } from "../content/submit-json";
import { requireApiBucketAccess } from "./guards";
import { HttpError } from "./http-error";
import { methodNotAllowed } from "./respond";
import { isUuid } from "../../core/ids";

/*
 * The content API's bucket calls, once: their route modules (app/routes/api/bucket-*.ts) and the hot-path
 * dispatch (server/web/hot-api.ts) both call these, inside apiRoute, so every check and message is the same.
 */

const noSuchDocument = () => new HttpError(404, "api.noSuchDocument");

/** GET /api/v1/buckets/{slug}/content/{contentId}/{versionId|latest}: one document. */
export async function readDocumentCall(
  request: Request,
  context: AppLoadContext,
  params: { slug?: string; contentId?: string; versionId?: string },
): Promise<Response> {
  const { bucket } = await requireApiBucketAccess(request, context, { slug: params.slug });
  const { contentId, versionId } = params;
  if (!isUuid(contentId) || (versionId !== "latest" && !isUuid(versionId))) throw noSuchDocument();
  const version =
    versionId === "latest"
      ? await getLatestVersion(context.db, bucket.id, contentId)
      : await getVersion(context.db, bucket.id, contentId, versionId);
  if (!version) throw noSuchDocument();
  return Response.json(toDocument(version));
}

/** DELETE /api/v1/buckets/{slug}/content/{contentId}/{_id}: only while _id is the latest version. */
export async function deleteDocumentCall(
  request: Request,
  context: AppLoadContext,
  params: { slug?: string; contentId?: string; versionId?: string },
): Promise<Response> {
  if (request.method !== "DELETE") throw methodNotAllowed("DELETE", "DELETE");
  const { bucket } = await requireApiBucketAccess(request, context, { slug: params.slug }, "write");
  if (!isUuid(params.contentId) || !isUuid(params.versionId)) throw noSuchDocument();
  await deleteContent(context.db, bucket.id, params.contentId, params.versionId);
  return new Response(null, { status: 204 });
}

export const saveNotAllowed = () => methodNotAllowed("POST", "POST {content, collection}");

/** POST /api/v1/buckets/{slug}/save {content, collection} → the saved content with contentId. */
export async function saveDocumentCall(request: Request, context: AppLoadContext, params: { slug?: string }): Promise<Response> {
  if (request.method !== "POST") throw saveNotAllowed();
  return submitJsonDocument(request, context, await requireApiBucketAccess(request, context, { slug: params.slug }, "write"));
}
