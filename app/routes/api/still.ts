import { serveFile } from "../../../server/media/serve";
import { jsonError } from "../../lib/api.server";
import { requireMediaAccess } from "../../lib/media.server";
import type { Route } from "./+types/still";

/** GET /api/v1/still/{contentId}/{index}, or ?filename=custom for the custom still. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { media } = await requireMediaAccess(request, context, { contentId: params.contentId, kind: "video" });
  const custom = new URL(request.url).searchParams.get("filename");
  const key = custom ? media.details.customStillKey : media.details.stillKeys?.[Number(params.index)];
  if (!key || (!custom && !/^\d+$/.test(params.index))) return jsonError("No such still", 404);
  const mimetype = key.endsWith(".png") ? "image/png" : key.endsWith(".webp") ? "image/webp" : "image/jpeg";
  return serveFile(request, context.media.storage.pathOf(key), { mimetype, etag: key, disposition: "inline", filename: `still-${params.index}${key.slice(key.lastIndexOf("."))}` });
}
