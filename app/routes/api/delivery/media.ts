import { presignedRedirect, serveFile } from "@server/web/serve-media";
import { latestMedia } from "@server/media/store";
import { mediaFile, parseMediaPath, verifyMediaUrl } from "@server/delivery/media";
import { notFound, Problem } from "@server/delivery/problem";
import { problemLocale, problemResponse } from "@server/web/delivery/problem-answer";
import { deliveryAction } from "@server/web/delivery/route";
import type { Route } from "./+types/media";

/*
 * GET /api/v1/delivery/media/{contentId}/{file}?expires=…&signature=…: a media file by the signed URL a document
 * answered (server/delivery/media.ts). No token: the signature is the credential, so <img> and <video> can load
 * it; an expired or forged one is 403, an unknown media or file 404 (problem details). Byte ranges for video. With
 * S3_PRESIGNED_DELIVERY, a redirect to the object store's own short-lived URL instead (the bytes skip Vitrine).
 */
export const loader = async ({ request, context, params }: Route.LoaderArgs) => {
  if (request.method === "OPTIONS")
    return new Response(null, {
      status: 204,
      headers: {
        Allow: "GET, HEAD, OPTIONS",
        "Access-Control-Allow-Origin": "*",
        "Access-Control-Allow-Headers": "Range",
        "Access-Control-Max-Age": "600",
      },
    });
  const locale = problemLocale(request, context.config.DEFAULT_LOCALE);
  const url = new URL(request.url);
  const named = parseMediaPath(params.contentId, params.file);
  if (!named) return problemResponse(notFound("delivery.problems.notFound.media"), locale);
  if (!verifyMediaUrl(context.config, url))
    return problemResponse(new Problem(403, "forbidden", "delivery.problems.forbidden.signature"), locale);
  const media = await latestMedia(context.db, named.contentId);
  const file = media ? mediaFile(media, named.file) : null;
  if (!file) return problemResponse(notFound("delivery.problems.notFound.media"), locale);
  const served = {
    mimetype: file.mimetype,
    etag: file.key,
    disposition: named.file === "original" && media?.kind === "file" && !file.mimetype.startsWith("audio/") ? "attachment" : "inline",
    filename: file.filename,
  } as const;
  const redirect = context.config.S3_PRESIGNED_DELIVERY ? await presignedRedirect(context.media.storage, file.key, served) : null;
  const response = redirect ?? (await serveFile(request, context.media.storage, file.key, served));
  // The signed URL is the credential: any page may fetch it; it stays the same for a while, so a cache may keep it.
  response.headers.set("Access-Control-Allow-Origin", "*");
  response.headers.set("Cache-Control", "private, max-age=3600");
  return response;
};

export const action = deliveryAction();
