import { toMediaContent } from "../../../server/media/content";
import { readJsonObject } from "../../../server/media/json-body";
import { parseThumb, selectThumb, THUMB_USAGE } from "../../../server/media/stills";
import { jobsOf } from "../../../server/media/store";
import { jsonError } from "../../../server/web/api";
import { mediaErrorResponse, requireMediaById } from "../../../server/media/edit-access";
import type { Route } from "./+types/media-thumb";

export function loader() {
  return jsonError(`Method not allowed: PUT {thumb}`, 405);
}

/**
 * PUT /api/v1/media/video/{id}/thumb {thumb: <still index> | {index} | {isCustom: true}}
 * ({id}: the video's contentId or a version's _id) → the updated fields:
 * {contentId, _id, thumb, still, thumbs}. 409 while the stills are not made
 * (or without a custom still), 422 for an index the stills do not have.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PUT") return jsonError("Method not allowed: PUT {thumb}", 405);
  const { media } = await requireMediaById(request, context, params.id, "video");
  try {
    const thumb = parseThumb(await readJsonObject(request, THUMB_USAGE));
    const jobs = await jobsOf(context.db, media.id);
    const updated = toMediaContent(await selectThumb(context.db, media, jobs, thumb), jobs);
    return Response.json({ contentId: updated.contentId, _id: updated._id, thumb: updated.thumb, still: updated.still, thumbs: updated.thumbs });
  } catch (error) {
    return mediaErrorResponse(error);
  }
}
