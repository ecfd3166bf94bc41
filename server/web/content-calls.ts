import type { AppLoadContext } from "react-router";
import { deleteContent, getLatestVersion, getVersion, type ContentVersion } from "@server/content/store";
import type { NamedDocument } from "@server/accounts/sessions";
import { toDocument } from "@server/content/document";
import { SAVE_USAGE, submitJsonDocument } from "@server/content/save-json";
import { readJsonBody } from "./api";
import { requireApiBucketAccess } from "./guards";
import { getRequestState } from "./request-state";
import { HttpError } from "@server/errors";
import { methodNotAllowed } from "./respond";
import { isUuid } from "@core/ids";

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
  const { contentId, versionId } = params;
  const named =
    isUuid(contentId) && (versionId === "latest" || isUuid(versionId))
      ? { contentId, versionId: versionId === "latest" ? null : versionId }
      : undefined;
  const { bucket } = await requireApiBucketAccess(request, context, { slug: params.slug, ...(named ? { document: named } : {}) });
  if (!named) throw noSuchDocument();
  const version =
    (await documentReadWithSession(request, context, named)) ??
    (named.versionId === null
      ? await getLatestVersion(context.db, bucket.id, named.contentId)
      : await getVersion(context.db, bucket.id, named.contentId, named.versionId));
  if (!version) throw noSuchDocument();
  return Response.json(toDocument(version));
}

/** The document the session lookup read with the session (PostgreSQL, a signed-in user's read); else undefined. */
async function documentReadWithSession(
  request: Request,
  context: AppLoadContext,
  named: NamedDocument,
): Promise<ContentVersion | null | undefined> {
  if (!context.requestState) return undefined; // an API client's call: no session was read
  const { namedDocument } = await getRequestState(request, context);
  if (!namedDocument || namedDocument.contentId !== named.contentId || namedDocument.versionId !== named.versionId) return undefined;
  return namedDocument.found;
}

/** DELETE /api/v1/buckets/{slug}/content/{contentId}/{_id}: only while _id is the latest version. */
export async function deleteDocumentCall(
  request: Request,
  context: AppLoadContext,
  params: { slug?: string; contentId?: string; versionId?: string },
): Promise<Response> {
  if (request.method !== "DELETE") throw methodNotAllowed("DELETE", "DELETE");
  const { bucket, user, client } = await requireApiBucketAccess(request, context, { slug: params.slug }, "write");
  if (!isUuid(params.contentId) || !isUuid(params.versionId)) throw noSuchDocument();
  const actor = user ?? { id: null, name: client?.name ?? "" };
  await deleteContent(context.db, bucket.id, params.contentId, params.versionId, { actor, bucket });
  return new Response(null, { status: 204 });
}

export const saveNotAllowed = () => methodNotAllowed("POST", "POST {content, collection}");

/** POST /api/v1/buckets/{slug}/save[?merge=true] {content, collection} → the saved content with contentId. */
export async function saveDocumentCall(request: Request, context: AppLoadContext, params: { slug?: string }): Promise<Response> {
  if (request.method !== "POST") throw saveNotAllowed();
  const { author, bucket } = await requireApiBucketAccess(request, context, { slug: params.slug }, "write");
  const body = await readJsonBody(request, SAVE_USAGE);
  // Messages in the interface language of whoever sends it (an API client's: its Accept-Language, else the default).
  const { locale } = await getRequestState(request, context);
  // ?merge=true: a stale save is merged with the newest version instead of refused (docs/api.md, "Merging").
  const merge = new URL(request.url).searchParams.get("merge") === "true";
  const outcome = await submitJsonDocument(context, body, { author, bucket, locale }, { merge });
  if (!outcome.saved) return Response.json(outcome.refusal, { status: outcome.status });
  return Response.json(outcome.document, { status: outcome.created ? 201 : 200 });
}
