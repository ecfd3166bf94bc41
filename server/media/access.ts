import type { AppLoadContext } from "react-router";
import { findBucketById, isBucketVisible, resolveBucketSlug, type Bucket } from "@server/content/buckets";
import { jobsOf, latestMedia, mediaVersion, type MediaRow } from "./store";
import type { User } from "@server/accounts/users";
import type { MediaKind } from "@core/media/bounds";
import { toMediaContent } from "./content";
import { HttpError } from "@server/errors";
import { requireApiUser } from "@server/web/guards";
import { isUuid } from "@core/ids";

export const MEDIA_KINDS: readonly MediaKind[] = ["image", "video", "file"];

export function mediaKindOf(value: string | undefined): MediaKind | null {
  return MEDIA_KINDS.includes(value as MediaKind) ? (value as MediaKind) : null;
}

const notFound = () => new HttpError(404, "media.noSuchMedia");

/**
 * The signed-in user and a media version they may see: the latest of
 * `contentId`, or the version `versionId` (of `contentId` when both are
 * given). The media belongs to a bucket, and the bucket's visibility
 * (spec §6) decides. Otherwise 404.
 */
export async function requireMediaAccess(
  request: Request,
  context: AppLoadContext,
  find: { contentId?: string; versionId?: string; kind?: MediaKind },
): Promise<{ user: User; media: MediaRow; bucket: Bucket }> {
  const user = await requireApiUser(request, context);
  const id = find.versionId ?? find.contentId;
  if (!id || !isUuid(id)) throw notFound();
  const media = find.versionId ? await mediaVersion(context.db, find.versionId) : await latestMedia(context.db, id, find.kind);
  if (!media || (find.kind && media.kind !== find.kind)) throw notFound();
  // A version named together with a contentId must be one of that content's versions.
  if (find.versionId && find.contentId !== undefined && media.contentId !== find.contentId) throw notFound();
  const bucket = await findBucketById(context.db, media.bucketId);
  if (!bucket || !isBucketVisible(bucket, user)) throw notFound();
  return { user, media, bucket };
}

/** The bucket an upload goes to, by the slug sent before the file; refuses what the user may not see. */
export async function uploadBucket(context: AppLoadContext, user: User, slug: string | undefined): Promise<Bucket> {
  if (!slug) throw new HttpError(400, "media.upload.bucketMissing");
  // An old slug of a renamed bucket still names it (exhibit apps keep working).
  const bucket = (await resolveBucketSlug(context.db, slug))?.bucket;
  if (!bucket || !isBucketVisible(bucket, user)) throw new HttpError(404, "api.noSuchBucket");
  return bucket;
}

export async function mediaContentResponse(context: AppLoadContext, media: MediaRow, init?: ResponseInit) {
  return Response.json(toMediaContent(media, await jobsOf(context.db, media.id)), init);
}

/**
 * The media an edit call names by `{id}` (crop, thumb, custom still): a
 * version's _id, or a contentId (its latest version), as the browser sends
 * the contentId. Same guard as every media call: 401 signed out, 404 for
 * media in a bucket the user may not see.
 */
export async function requireMediaById(request: Request, context: AppLoadContext, id: string | undefined, kind: MediaKind) {
  await requireApiUser(request, context);
  const version = isUuid(id) ? await mediaVersion(context.db, id) : null;
  return requireMediaAccess(request, context, version ? { versionId: id, kind } : { contentId: id, kind });
}
