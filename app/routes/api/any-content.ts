import { listContents } from "../../../server/content/store";
import { toDocument } from "../../../server/content/save";
import { referenceSearchAnswer } from "../../../server/content/references";
import { requireApiBucketAccess } from "../../../server/web/guards";
import { HttpError } from "../../../server/web/http-error";
import { apiRoute } from "../../../server/web/respond";
import type { Route } from "./+types/any-content";

export const ANY_CONTENT_LIMIT = 1000;

/**
 * GET /api/v1/buckets/any/content?collection=…: the collection's documents, with contentId (select options).
 * With `search` (and an optional `limit`): [{contentId, title, thumbnail}] of the documents whose text matches, for
 * the reference combobox (server/content/references.ts).
 */
export const loader = apiRoute(async ({ request, context }: Route.LoaderArgs) => {
  const params = new URL(request.url).searchParams;
  const collection = params.get("collection");
  if (!collection) throw new HttpError(400, "api.collectionRequired");
  const { bucket } = await requireApiBucketAccess(request, context, { collectionName: collection });
  if (params.has("search")) return Response.json(await referenceSearchAnswer(context.db, bucket, params));
  const versions = await listContents(context.db, bucket.id, { limit: ANY_CONTENT_LIMIT });
  return Response.json(versions.map(toDocument));
});
