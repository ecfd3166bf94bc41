import { intakeUpload } from "@server/media/intake";
import { receiveUpload } from "@server/media/upload";
import { incomingBody } from "@server/web/form-post";
import { requireApiUser } from "@server/web/guards";
import { HttpError } from "@server/errors";
import { apiRoute, methodNotAllowed } from "@server/web/respond";
import { mediaBounds } from "@core/media/bounds";
import type { RouteHandle } from "@core/route-handle";
import { mediaContent, mediaKindOf, uploadBucket } from "@server/media/access";
import { requireMediaAccess } from "@server/web/media-access";
import { resolveMediaProperty } from "@server/media/field-property";
import type { Route } from "./+types/media-upload";

export const handle = { streamsBody: true } satisfies RouteHandle;

/**
 * POST /api/v1/media/{image|video|file}/upload: multipart with `bucket`,
 * `properties` (the field's schema property, JSON: it names which of the
 * bucket's fields the upload is for; the rules are the bucket schema's),
 * `uid`, optionally `contentId` (a new version of that media), then `file`.
 * Answers a list whose first item is the media content, or {error}.
 */
export const action = apiRoute(async ({ request, context, params }: Route.ActionArgs) => {
  if (request.method !== "POST") throw methodNotAllowed("POST", "POST");
  const kind = mediaKindOf(params.kind);
  if (!kind) throw new HttpError(404, "media.noSuchKind");
  const user = await requireApiUser(request, context);
  let bucketId = "";
  let property: Record<string, unknown> = {};
  let contentId: string | undefined;
  const upload = await receiveUpload(incomingBody(request), context.media.storage, async (fields) => {
    const bucket = await uploadBucket(context, user, fields.bucket);
    bucketId = bucket.id;
    if (fields.contentId) {
      const previous = await requireMediaAccess(request, context, { contentId: fields.contentId, kind }).catch(() => {
        throw new HttpError(404, "media.noSuchMedia");
      });
      contentId = previous.media.contentId;
    }
    property = resolveMediaProperty(bucket.jsonSchema, kind, fields.properties);
    return mediaBounds(kind, property).maxBytes;
  });
  const media = await intakeUpload(
    { kind, file: upload.file, property, owner: { bucketId, userId: user.id }, contentId },
    { db: context.db, media: context.media },
  );
  context.logger.info({ mediaId: media.id, kind, size: media.size }, "media uploaded");
  return Response.json([{ ...(await mediaContent(context, media)), uid: upload.fields.uid ?? null }]);
});
