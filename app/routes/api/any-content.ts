import { listContents } from "@server/content/listing";
import { toDocument } from "@server/content/document";
import { bucketReader, populateDocuments } from "@server/content/populate";
import { referenceSearchAnswer } from "@server/content/references";
import { requireApiBucketAccess } from "@server/web/guards";
import { HttpError } from "@server/errors";
import { apiRoute } from "@server/web/respond";
import type { Route } from "./+types/any-content";

export const ANY_CONTENT_LIMIT = 1000;

/** `populate=true` resolves each document's media references (the cases picker's thumbnails); absent or `false`: not. */
function populateParam(params: URLSearchParams): boolean {
  const value = params.get("populate");
  if (value === null || value === "false") return false;
  if (value === "true") return true;
  throw new HttpError(400, "cases.api.populateValue");
}

/**
 * GET /api/v1/buckets/any/content?collection=…: the collection's documents, with contentId (select options).
 * With `search` (and an optional `limit`): [{contentId, title, thumbnail}] of the documents whose text matches, for
 * the reference combobox (server/content/references.ts). With `populate=true`: each document's media references
 * resolved (the cases picker's thumbnails, server/content/populate.ts).
 */
export const loader = apiRoute(async ({ request, context }: Route.LoaderArgs) => {
  const params = new URL(request.url).searchParams;
  const collection = params.get("collection");
  if (!collection) throw new HttpError(400, "api.collectionRequired");
  const populate = populateParam(params);
  const access = await requireApiBucketAccess(request, context, { collectionName: collection });
  const { bucket } = access;
  if (params.has("search")) return Response.json(await referenceSearchAnswer(context.db, bucket, params));
  const versions = await listContents(context.db, bucket.id, { limit: ANY_CONTENT_LIMIT });
  if (!populate) return Response.json(versions.map(toDocument));
  return Response.json(await populateDocuments(context.db, bucket, versions, bucketReader(access)));
});
