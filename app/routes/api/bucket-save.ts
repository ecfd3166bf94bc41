import { FORBIDDEN_KEYS } from "../../../core/content/payload";
import { saveDocument, splitDocument, toDocument } from "../../../server/content/save";
import { readJsonBody } from "../../../server/web/api";
import { requireApiBucketAccess } from "../../../server/web/guards";
import { HttpError } from "../../../server/web/http-error";
import { apiRoute, methodNotAllowed } from "../../../server/web/respond";
import type { Route } from "./+types/bucket-save";

const SAVE_USAGE = { key: "api.usage.save" } as const;
const notAllowed = () => methodNotAllowed("POST", "POST {content, collection}");

export const loader = apiRoute(() => {
  throw notAllowed();
});

/** POST /api/v1/buckets/{slug}/save {content, collection} → the saved content with contentId. */
export const action = apiRoute(async ({ request, context, params }: Route.ActionArgs) => {
  if (request.method !== "POST") throw notAllowed();
  const { user, bucket } = await requireApiBucketAccess(request, context, { slug: params.slug });
  const body = await readJsonBody(request, SAVE_USAGE);
  const forbidden = Object.keys(body).find((key) => FORBIDDEN_KEYS.has(key));
  if (forbidden) throw new HttpError(400, "api.forbiddenName", { name: forbidden });
  const content = body.content;
  if (typeof content !== "object" || content === null || Array.isArray(content)) throw new HttpError(400, "api.contentNotObject");
  if (body.collection !== undefined && typeof body.collection !== "string") throw new HttpError(400, "api.collectionNotString");
  if (body.collection !== undefined && body.collection !== bucket.collectionName) {
    throw new HttpError(400, "api.collectionMismatch", { collection: body.collection, bucket: bucket.slug });
  }
  // A contentId or _id of another type must not quietly turn the save into a new document.
  for (const key of ["contentId", "_id"] as const) {
    const id = (content as Record<string, unknown>)[key];
    if (id !== undefined && id !== null && typeof id !== "string") throw new HttpError(400, "api.idNotString", { key });
  }
  const { contentId, baseVersionId, data } = splitDocument(content as Record<string, unknown>);
  const outcome = await saveDocument(context, user, bucket, { contentId, baseVersionId, data });
  if (!outcome.ok) return Response.json({ error: outcome.message, errors: outcome.errors.byField, locales: outcome.errors.locales }, { status: outcome.status });
  return Response.json(toDocument(outcome.version), { status: contentId ? 200 : 201 });
});
