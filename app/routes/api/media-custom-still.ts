import { acceptCustomStill, customStillUrl, MAX_CUSTOM_STILL_BYTES } from "../../../server/media/stills";
import { resolveMediaProperty } from "../../../server/media/field-property";
import { receiveUpload, UploadError } from "../../../server/media/upload";
import { jsonError } from "../../../server/web/api";
import { mediaErrorResponse, requireMediaById } from "../../../server/media/edit-access";
import type { RouteHandle } from "../../../core/route-handle";
import type { Route } from "./+types/media-custom-still";

export const handle = { streamsBody: true } satisfies RouteHandle;

export function loader() {
  return jsonError("Method not allowed: POST a multipart upload with one file", 405);
}

/**
 * POST /api/v1/media/{contentId}/still: a custom still for a video, multipart
 * with `properties` (the video field's schema property, as uploads send it;
 * the bucket's field must have allowCustomStill, else 403) and one file
 * (jpeg, png or webp by content, else 415). Answers
 * {thumb: {isCustom: true, filename, url}, still, dimensions, video, smallerThanVideo}:
 * PUT …/thumb with that thumb selects it; smallerThanVideo asks the spec's
 * 'Incorrect Size' confirmation first. A later custom still replaces this one.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return jsonError("Method not allowed: POST a multipart upload with one file", 405);
  const { media, bucket } = await requireMediaById(request, context, params.contentId, "video");
  const { storage } = context.media;
  try {
    const upload = await receiveUpload(request, storage, (fields) => {
      if (resolveMediaProperty(bucket.jsonSchema, "video", fields.properties).allowCustomStill !== true) {
        throw new UploadError(403, "This video field does not allow custom stills: its schema property has no allowCustomStill.");
      }
      return MAX_CUSTOM_STILL_BYTES;
    });
    const still = await acceptCustomStill(media, upload.file, { db: context.db, storage });
    const url = customStillUrl(still.media)!;
    context.logger.info({ mediaId: media.id, width: still.width, height: still.height }, "custom still uploaded");
    return Response.json({
      thumb: { isCustom: true, filename: "custom", url },
      still: url,
      dimensions: { width: still.width, height: still.height },
      video: media.width && media.height ? { width: media.width, height: media.height } : null,
      smallerThanVideo: still.smallerThanVideo,
    });
  } catch (error) {
    return mediaErrorResponse(error);
  }
}
