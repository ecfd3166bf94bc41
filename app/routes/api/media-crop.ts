import { toMediaContent } from "../../../server/media/content";
import { CROP_USAGE, cropBoundsFor, cropImage, parseCoordinates } from "../../../server/media/crop";
import { readJsonObject } from "../../../server/media/json-body";
import { jsonError } from "../../../server/web/api";
import { mediaErrorResponse, requireMediaById } from "../../../server/media/edit-access";
import type { Route } from "./+types/media-crop";

export function loader() {
  return jsonError(`Method not allowed: POST {coordinates: {x, y, width, height}}`, 405);
}

/**
 * POST /api/v1/media/image/crop/{id} {coordinates: {x, y, width, height}, properties?}
 * ({id}: the image's contentId or a version's _id) → the media content of a
 * new version (same contentId, new _id) cropped from the original, with
 * originalImageVersionId and crop. `properties`, the field's schema property
 * as uploads send it, names the bucket's image field whose crop bounds apply
 * (without it the bucket's image fields must agree); a field without
 * enableCrop or forceCrop is not cropped (403).
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return jsonError(`Method not allowed: POST {coordinates: {x, y, width, height}}`, 405);
  const { user, media, bucket } = await requireMediaById(request, context, params.id, "image");
  try {
    const body = await readJsonObject(request, CROP_USAGE);
    const coordinates = parseCoordinates(body);
    const bounds = cropBoundsFor(body.properties, bucket.jsonSchema);
    const cropped = await cropImage({ source: media, coordinates, bounds, userId: user.id }, { db: context.db, storage: context.media.storage });
    context.logger.info({ mediaId: cropped.id, originalImageVersionId: cropped.originalImageVersionId, crop: coordinates }, "image cropped");
    return Response.json(toMediaContent(cropped, []));
  } catch (error) {
    return mediaErrorResponse(error);
  }
}
