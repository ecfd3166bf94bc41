import { listContents } from "../../../server/content/store";
import { jsonError } from "../../../server/web/api";
import { toDocument } from "../../../server/content/save";
import { requireApiBucketAccess } from "../../../server/web/guards";
import type { Route } from "./+types/any-content";

export const ANY_CONTENT_LIMIT = 1000;

/** GET /api/v1/buckets/any/content?collection=…: the collection's documents, with contentId (select options). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const collection = new URL(request.url).searchParams.get("collection");
  if (!collection) return jsonError("collection is required", 400);
  const { bucket } = await requireApiBucketAccess(request, context, { collectionName: collection });
  const versions = await listContents(context.db, bucket.id, { limit: ANY_CONTENT_LIMIT });
  return Response.json(versions.map(toDocument));
}
