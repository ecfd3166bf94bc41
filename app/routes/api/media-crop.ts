import { toMediaContent } from "@server/media/content";
import { CROP_USAGE, cropBoundsFor, cropImage, cropUse, parseCoordinates } from "@server/media/crop";
import { uploadBucket } from "@server/media/access";
import { requireMediaById } from "@server/web/media-access";
import { MAX_SMALL_JSON_BYTES, readJsonBody } from "@server/web/api";
import { apiRoute, methodNotAllowed } from "@server/web/respond";
import type { Route } from "./+types/media-crop";

const notAllowed = () => methodNotAllowed("POST", "POST {coordinates: {x, y, width, height}}");

export const loader = apiRoute(() => {
  throw notAllowed();
});

/**
 * POST /api/v1/media/image/crop/{id} {coordinates: {x, y, width, height}, properties?}
 * ({id}: the image's contentId or a version's _id) → the media content of a
 * new version (same contentId, new _id) cropped from the original, with
 * originalImageVersionId and crop. `properties`, the field's schema property
 * as uploads send it, names the bucket's image field whose crop bounds apply
 * (without it the bucket's image fields must agree); a field without
 * enableCrop or forceCrop is not cropped (403). A field sends `bucket` (its
 * form's bucket, whose schema then holds `properties`) and `document` (its
 * document's contentId, null for a new one): an item other documents use
 * gets the crop as this use's own (server/media/use-items.ts).
 */
export const action = apiRoute(async ({ request, context, params }: Route.ActionArgs) => {
  if (request.method !== "POST") throw notAllowed();
  const { user, media, bucket } = await requireMediaById(request, context, params.id, "image");
  const body = await readJsonBody(request, CROP_USAGE, MAX_SMALL_JSON_BYTES);
  const coordinates = parseCoordinates(body);
  const use = cropUse(body);
  const formBucket = typeof body.bucket === "string" ? await uploadBucket(context, user, body.bucket) : bucket;
  const bounds = cropBoundsFor(body.properties, formBucket.jsonSchema);
  const cropped = await cropImage(
    { source: media, coordinates, bounds, userId: user.id, use },
    { db: context.db, storage: context.media.storage },
  );
  context.logger.info({ mediaId: cropped.id, originalImageVersionId: cropped.originalImageVersionId, crop: coordinates }, "image cropped");
  return Response.json(toMediaContent(cropped, []));
});
