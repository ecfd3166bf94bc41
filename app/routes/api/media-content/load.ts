import type { AppLoadContext, LoaderFunctionArgs } from "react-router";
import { isUuid } from "@core/ids";
import type { MediaKind } from "@core/media/bounds";
import { HttpError } from "@server/errors";
import { mediaContent } from "@server/media/access";
import { requireMediaAccess } from "@server/web/media-access";

/**
 * GET /api/v1/buckets/{kind}/content/{contentId}/latest: the media content
 * with its status and jobs (polled every 2 s while processing);
 * …/content/contentId/{versionId} (or …/{contentId}/{versionId}) one version,
 * e.g. the original of a cropped image. One route module per kind names it.
 */
export async function loadMediaContent({ request, context, params }: LoaderFunctionArgs<AppLoadContext>, kind: MediaKind) {
  const { contentId, versionId } = params;
  const find =
    versionId === "latest"
      ? { contentId, kind }
      : isUuid(versionId)
        ? { versionId, kind, contentId: contentId === "contentId" ? undefined : contentId }
        : null;
  if (!find) throw new HttpError(404, "media.noSuchMedia");
  const { media } = await requireMediaAccess(request, context, find);
  return Response.json(await mediaContent(context, media));
}
