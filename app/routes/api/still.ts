import { serveFile } from "@server/web/serve-media";
import { requireMediaAccess } from "@server/web/media-access";
import { stillMimetype } from "@server/media/stills";
import { HttpError } from "@server/errors";
import { apiRoute } from "@server/web/respond";
import type { Route } from "./+types/still";

const noSuchStill = () => new HttpError(404, "media.noSuchStill");

/**
 * GET /api/v1/still/{contentId}/{index}: a still the still-creation job made;
 * GET /api/v1/still/{contentId}/custom, or any …/{index}?filename=custom: the
 * custom still. Other file names are not found.
 */
export const loader = apiRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const { media } = await requireMediaAccess(request, context, { contentId: params.contentId, kind: "video" });
  const filename = new URL(request.url).searchParams.get("filename");
  const custom = filename !== null ? filename === "custom" : params.index === "custom";
  if (filename !== null && !custom) throw noSuchStill();
  if (!custom && !/^\d{1,4}$/.test(params.index)) throw noSuchStill();
  const key = custom ? media.details.customStillKey : media.details.stillKeys?.[Number(params.index)];
  if (!key) throw noSuchStill();
  const ext = key.slice(key.lastIndexOf("."));
  return serveFile(request, context.media.storage, key, {
    mimetype: stillMimetype(key),
    etag: key,
    disposition: "inline",
    filename: custom ? `still-custom${ext}` : `still-${params.index}${ext}`,
  });
});
