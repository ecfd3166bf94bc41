import { sharedMedia } from "@server/content/shared-previews";
import { serveMedia } from "@server/web/serve-media";
import { HttpError } from "@server/errors";
import { apiRoute } from "@server/web/respond";
import { SHARE_HEADERS } from "@core/content/shareables";
import type { Route } from "./+types/media";

/**
 * GET /shareables/{token}/media/{mediaContentId}[?download]: a media file of a shared document, for anyone holding
 * the link (no session). Only media the shared version names; anything else, or a dead link, is 404.
 */
export const loader = apiRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const media = await sharedMedia(context.db, params.token, params.contentId);
  if (!media) throw new HttpError(404, "errors.notFound", {}, { headers: SHARE_HEADERS });
  const response = await serveMedia(request, context.media.storage, media, new URL(request.url).searchParams.get("download") !== null);
  for (const [name, value] of Object.entries(SHARE_HEADERS)) response.headers.set(name, value);
  return response;
});
