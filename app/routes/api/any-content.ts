import { listContents } from "../../../server/content/store";
import { toDocument } from "../../../server/content/save";
import { requireApiBucketAccess } from "../../../server/web/guards";
import { HttpError } from "../../../server/web/http-error";
import { apiRoute } from "../../../server/web/respond";
import type { Route } from "./+types/any-content";

export const ANY_CONTENT_LIMIT = 1000;

/** GET /api/v1/buckets/any/content?collection=…: the collection's documents, with contentId (select options). */
export const loader = apiRoute(async ({ request, context }: Route.LoaderArgs) => {
  const collection = new URL(request.url).searchParams.get("collection");
  if (!collection) throw new HttpError(400, "api.collectionRequired");
  const { bucket } = await requireApiBucketAccess(request, context, { collectionName: collection });
  const versions = await listContents(context.db, bucket.id, { limit: ANY_CONTENT_LIMIT });
  return Response.json(versions.map(toDocument));
});
