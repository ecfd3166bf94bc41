import { findBucketById, isBucketVisible, resolveBucketSlug, type Bucket } from "@server/content/buckets";
import { jobsOf, latestMedia, mediaVersion, type MediaRow } from "./store";
import type { User } from "@server/accounts/users";
import type { MediaKind } from "@core/media/bounds";
import { toMediaContent } from "./content";
import { HttpError } from "@server/errors";
import { missingAltOf } from "./library";
import type { Services } from "@server/services";
import type { Queryable } from "@server/db/client";
import { isUuid } from "@core/ids";
import { sharedItemOf } from "./use-items";

export const MEDIA_KINDS: readonly MediaKind[] = ["image", "video", "file"];

export function mediaKindOf(value: string | undefined): MediaKind | null {
  return MEDIA_KINDS.includes(value as MediaKind) ? (value as MediaKind) : null;
}

const notFound = () => new HttpError(404, "media.noSuchMedia");

export interface MediaFind {
  contentId?: string;
  versionId?: string;
  kind?: MediaKind;
}

/**
 * A media version the user may see: the latest of `contentId`, or the version `versionId` (of `contentId` when
 * both are given). The media belongs to a bucket, and the bucket's visibility (spec §6) decides. Otherwise 404.
 */
export async function findVisibleMedia(db: Queryable, user: User, find: MediaFind): Promise<{ media: MediaRow; bucket: Bucket }> {
  const id = find.versionId ?? find.contentId;
  if (!id || !isUuid(id)) throw notFound();
  const media = find.versionId ? await mediaVersion(db, find.versionId) : await latestMedia(db, id, find.kind);
  if (!media || (find.kind && media.kind !== find.kind)) throw notFound();
  // A version named together with a contentId must be one of that content's versions (or, for a use item, the
  // shared item's version its crop was made from: use-items.ts).
  if (find.versionId && find.contentId !== undefined && media.contentId !== find.contentId) {
    if (!isUuid(find.contentId) || (await sharedItemOf(db, find.contentId)) !== media.contentId) throw notFound();
  }
  const bucket = await findBucketById(db, media.bucketId);
  if (!bucket || !isBucketVisible(bucket, user)) throw notFound();
  return { media, bucket };
}

/** What an edit call's `{id}` names (crop, thumb, custom still): a version's _id, or else a contentId (its latest). */
export async function mediaFindById(db: Queryable, id: string | undefined, kind: MediaKind): Promise<MediaFind> {
  const version = isUuid(id) ? await mediaVersion(db, id) : null;
  return version ? { versionId: id, kind } : { contentId: id, kind };
}

/** The bucket an upload goes to, by the slug sent before the file; refuses what the user may not see. */
export async function uploadBucket(context: Services, user: User, slug: string | undefined): Promise<Bucket> {
  if (!slug) throw new HttpError(400, "mediaChecks.upload.bucketMissing");
  // An old slug of a renamed bucket still names it (exhibit apps keep working).
  const bucket = (await resolveBucketSlug(context.db, slug))?.bucket;
  if (!bucket || !isBucketVisible(bucket, user)) throw new HttpError(404, "api.noSuchBucket");
  return bucket;
}

/** A media version as the API shows it, with its jobs (and an image's locales without an alternative text). */
export async function mediaContent(context: Services, media: MediaRow) {
  const [jobs, missingAlt] = await Promise.all([
    jobsOf(context.db, media.id),
    media.kind === "image" ? missingAltOf(context.db, media.contentId) : Promise.resolve([]),
  ]);
  return { ...toMediaContent(media, jobs), ...(missingAlt.length ? { missingAlt } : {}) };
}
