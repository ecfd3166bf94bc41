import { serveFile } from "../../../server/media/serve";
import { jsonError } from "../../../server/web/api";
import { requireMediaAccess } from "../../../server/media/access";
import type { Route } from "./+types/still";

const noSuchStill = () => jsonError("No such still", 404);

/**
 * GET /api/v1/still/{contentId}/{index}: a still the still-creation job made;
 * GET /api/v1/still/{contentId}/custom, or any …/{index}?filename=custom: the
 * custom still. Other file names are not found.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { media } = await requireMediaAccess(request, context, { contentId: params.contentId, kind: "video" });
  const filename = new URL(request.url).searchParams.get("filename");
  const custom = filename !== null ? filename === "custom" : params.index === "custom";
  if (filename !== null && !custom) return noSuchStill();
  if (!custom && !/^\d{1,4}$/.test(params.index)) return noSuchStill();
  const key = custom ? media.details.customStillKey : media.details.stillKeys?.[Number(params.index)];
  if (!key) return noSuchStill();
  const ext = key.slice(key.lastIndexOf("."));
  const mimetype = ext === ".png" ? "image/png" : ext === ".webp" ? "image/webp" : "image/jpeg";
  return serveFile(request, context.media.storage.pathOf(key), {
    mimetype,
    etag: key,
    disposition: "inline",
    filename: custom ? `still-custom${ext}` : `still-${params.index}${ext}`,
  });
}
