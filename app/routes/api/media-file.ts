import { serveMedia } from "@server/web/serve-media";
import { mediaKindOf } from "@server/media/access";
import { requireMediaAccess } from "@server/web/media-access";
import { HttpError } from "@server/errors";
import { apiRoute } from "@server/web/respond";
import type { Route } from "./+types/media-file";

/**
 * GET /api/v1/media/{image|video|file}/{contentId}[?version={_id}]: view,
 * play or download the latest version, or one version of that content. Videos play their web rendition once it exists; files are
 * always downloads, so nothing (HTML, SVG) runs from our origin.
 */
export const loader = apiRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const kind = mediaKindOf(params.kind);
  if (!kind) throw new HttpError(404, "media.noSuchKind");
  const url = new URL(request.url);
  const version = url.searchParams.get("version") ?? undefined;
  const { media } = await requireMediaAccess(request, context, { contentId: params.contentId, versionId: version, kind });
  return serveMedia(request, context.media.storage, media, url.searchParams.get("download") !== null);
});
