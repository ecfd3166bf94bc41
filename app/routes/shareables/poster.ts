import { sharedMedia } from "@server/content/shared-previews";
import { serveFile } from "@server/web/serve-media";
import { posterKey, stillMimetype } from "@server/media/stills";
import { HttpError } from "@server/errors";
import { apiRoute } from "@server/web/respond";
import { SHARE_HEADERS } from "@core/content/shareables";
import type { Route } from "./+types/poster";

/** GET /shareables/{token}/media/{mediaContentId}/poster: the chosen still of a shared video (its player's poster). */
export const loader = apiRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const media = await sharedMedia(context.db, params.token, params.contentId);
  const key = media?.kind === "video" ? posterKey(media) : null;
  if (!key) throw new HttpError(404, "errors.notFound", {}, { headers: SHARE_HEADERS });
  const response = await serveFile(request, context.media.storage, key, {
    mimetype: stillMimetype(key),
    etag: key,
    disposition: "inline",
    filename: `poster${key.slice(key.lastIndexOf("."))}`,
  });
  for (const [name, value] of Object.entries(SHARE_HEADERS)) response.headers.set(name, value);
  return response;
});
