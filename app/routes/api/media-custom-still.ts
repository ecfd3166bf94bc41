import { acceptCustomStill, customStillUrl, MAX_CUSTOM_STILL_BYTES } from "@server/media/stills";
import { resolveMediaProperty } from "@server/media/field-property";
import { receiveUpload } from "@server/media/upload";
import { incomingBody } from "@server/web/form-post";
import { requireMediaById } from "@server/web/media-access";
import { HttpError } from "@server/errors";
import { apiRoute, methodNotAllowed } from "@server/web/respond";
import type { RouteHandle } from "@core/route-handle";
import type { Route } from "./+types/media-custom-still";

export const handle = { streamsBody: true } satisfies RouteHandle;

const notAllowed = () => methodNotAllowed("POST", "POST a multipart upload with one file");

export const loader = apiRoute(() => {
  throw notAllowed();
});

/**
 * POST /api/v1/media/{contentId}/still: a custom still for a video, multipart
 * with `properties` (the video field's schema property, as uploads send it;
 * the bucket's field must have allowCustomStill, else 403) and one file
 * (jpeg, png or webp by content, else 415). Answers
 * {thumb: {isCustom: true, filename, url}, still, dimensions, video, smallerThanVideo}:
 * PUT …/thumb with that thumb selects it; smallerThanVideo asks the spec's
 * 'Incorrect Size' confirmation first. A later custom still replaces this one.
 */
export const action = apiRoute(async ({ request, context, params }: Route.ActionArgs) => {
  if (request.method !== "POST") throw notAllowed();
  const { media, bucket } = await requireMediaById(request, context, params.contentId, "video");
  const { storage } = context.media;
  const upload = await receiveUpload(incomingBody(request), storage, (fields) => {
    if (resolveMediaProperty(bucket.jsonSchema, "video", fields.properties).allowCustomStill !== true) {
      throw new HttpError(403, "media.customStill.notAllowed");
    }
    return MAX_CUSTOM_STILL_BYTES;
  });
  const still = await acceptCustomStill(media, upload.file, { db: context.db, storage });
  const url = customStillUrl(still.media);
  // acceptCustomStill has just recorded the still's key.
  if (url === null) throw new Error("custom still recorded without its key");
  context.logger.info({ mediaId: media.id, width: still.width, height: still.height }, "custom still uploaded");
  return Response.json({
    thumb: { isCustom: true, filename: "custom", url },
    still: url,
    dimensions: { width: still.width, height: still.height },
    video: media.width && media.height ? { width: media.width, height: media.height } : null,
    smallerThanVideo: still.smallerThanVideo,
  });
});
