import { jsonError } from "../../../server/web/api";
import { isUuid } from "../../../core/ids";
import { mediaContentResponse, mediaKindOf, requireMediaAccess } from "../../../server/media/access";
import type { Route } from "./+types/media-content";

/**
 * GET /api/v1/buckets/{image|video|file}/content/{contentId}/latest: the media
 * content with its status and jobs (polled every 2 s while processing);
 * …/content/contentId/{versionId} (or …/{contentId}/{versionId}) one version,
 * e.g. the original of a cropped image.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const kind = mediaKindOf(new URL(request.url).pathname.split("/")[4]);
  if (!kind) return jsonError("No such media type", 404);
  const { contentId, versionId } = params;
  const find =
    versionId === "latest"
      ? { contentId, kind }
      : isUuid(versionId)
        ? { versionId, kind, contentId: contentId === "contentId" ? undefined : contentId }
        : null;
  if (!find) return jsonError("No such media", 404);
  const { media } = await requireMediaAccess(request, context, find);
  return mediaContentResponse(context, media);
}
