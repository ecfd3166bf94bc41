import { toMediaContent } from "@server/media/content";
import { parseThumb, selectThumb } from "@server/media/stills";
import { jobsOf } from "@server/media/store";
import { requireMediaById } from "@server/web/media-access";
import { MAX_SMALL_JSON_BYTES, readJsonBody } from "@server/web/api";
import { apiRoute, methodNotAllowed } from "@server/web/respond";
import type { Route } from "./+types/media-thumb";

const notAllowed = () => methodNotAllowed("PUT", "PUT {thumb}");

export const loader = apiRoute(() => {
  throw notAllowed();
});

/**
 * PUT /api/v1/media/video/{id}/thumb {thumb: <still index> | {index} | {isCustom: true}}
 * ({id}: the video's contentId or a version's _id) → the updated fields:
 * {contentId, _id, thumb, still, thumbs}. 409 while the stills are not made
 * (or without a custom still), 422 for an index the stills do not have.
 */
export const action = apiRoute(async ({ request, context, params }: Route.ActionArgs) => {
  if (request.method !== "PUT") throw notAllowed();
  const { media } = await requireMediaById(request, context, params.id, "video");
  const thumb = parseThumb(await readJsonBody(request, { key: "api.usage.thumb" }, MAX_SMALL_JSON_BYTES));
  const jobs = await jobsOf(context.db, media.id);
  const updated = toMediaContent(await selectThumb(context.db, media, jobs, thumb), jobs);
  return Response.json({
    contentId: updated.contentId,
    _id: updated._id,
    thumb: updated.thumb,
    still: updated.still,
    thumbs: updated.thumbs,
  });
});
