import type { Services } from "@server/services";
import { findBucketById, isBucketVisible, type Bucket } from "./buckets";
import { historyEntries, referenceTitles } from "./history";
import { getLatestVersion, getVersion, type ContentVersion } from "./store";
import { getRelease, ReleaseNotFoundError, type Release } from "./releases";
import { compileBucketSchema } from "./validator";
import { SHARE_COLUMNS, type ShareRow } from "./shareables";
import { hasPermission, USER_COLUMNS, type User } from "@server/accounts/users";
import type { Queryable } from "@server/db/client";
import { mediaReferences } from "@server/media/form-upload";
import { textsOf } from "@server/media/library";
import { latestMedia, type MediaRow } from "@server/media/store";
import { posterKey } from "@server/media/stills";
import { hashToken } from "@server/security/tokens";
import { documentTitle } from "@core/content/title";
import { diffTargets, documentRows } from "@core/content/version-diff";
import { sharePaths, type SharedDocument, type SharedMedia, type SharedPage, type SharedRelease } from "@core/content/shareables";
import { isUuid } from "@core/ids";
import { bucketName } from "@core/content/bucket-name";
import type { Locale } from "@core/locales";

/*
 * What a shareable link shows when it is opened without signing in (/shareables/{token}): the link its token names
 * while it is live and its maker may still see what it shows, then the document's version (or the release's
 * documents, of buckets the maker sees) along its schema, and the media files it names. A link that may show nothing
 * answers null (404). Making, listing and revoking links: shareables.ts.
 */

interface OpenDocumentShare {
  kind: "document";
  share: ShareRow;
  bucket: Bucket;
  version: ContentVersion;
  creator: User;
}

/** A release link, opened: the release and, of its documents in buckets the maker sees, each at its release version. */
interface OpenReleaseShare {
  kind: "release";
  share: ShareRow;
  release: Release;
  items: Array<{ bucket: Bucket; version: ContentVersion }>;
  creator: User;
}

type OpenShare = OpenDocumentShare | OpenReleaseShare;

/** The live link a token names, with what it shows; null for an unknown, expired or revoked one, or one that may no longer show it. */
async function openShareable(db: Queryable, token: string | undefined): Promise<OpenShare | null> {
  if (!token || token.length < 40 || token.length > 100 || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
  const { rows } = await db.query<ShareRow>(
    `SELECT ${SHARE_COLUMNS} FROM shareables s WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now()`,
    [hashToken(token)],
  );
  const share = rows[0];
  if (!share) return null;
  const { rows: creators } = await db.query<User>(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = $1 AND u.deactivated_at IS NULL`, [
    share.createdBy,
  ]);
  const creator = creators[0];
  if (!creator || !hasPermission(creator, "user")) return null;
  if (share.releaseId !== null) return openRelease(db, share, creator, share.releaseId);
  if (share.bucketId === null || share.contentId === null) return null;
  const bucket = await findBucketById(db, share.bucketId);
  if (!bucket || !isBucketVisible(bucket, creator)) return null;
  const version = share.versionId
    ? await getVersion(db, bucket.id, share.contentId, share.versionId)
    : await getLatestVersion(db, bucket.id, share.contentId);
  return version ? { kind: "document", share, bucket, version, creator } : null;
}

async function openRelease(db: Queryable, share: ShareRow, creator: User, releaseId: string): Promise<OpenReleaseShare | null> {
  let release: Release;
  try {
    release = await getRelease(db, releaseId);
  } catch (error) {
    if (error instanceof ReleaseNotFoundError) return null;
    throw error;
  }
  const buckets = new Map<string, Bucket | null>();
  const items: OpenReleaseShare["items"] = [];
  for (const item of release.items) {
    if (!buckets.has(item.bucket.id)) {
      const bucket = await findBucketById(db, item.bucket.id);
      buckets.set(item.bucket.id, bucket && isBucketVisible(bucket, creator) ? bucket : null);
    }
    const bucket = buckets.get(item.bucket.id);
    if (!bucket) continue;
    const version = await getVersion(db, bucket.id, item.contentId, item.releaseVersionId);
    if (version) items.push({ bucket, version });
  }
  return { kind: "release", share, release, items, creator };
}

/** A media row as the shared page shows it, when its bucket is the link maker's to see. */
async function visibleMedia(db: Queryable, creator: User, contentId: string, buckets: Map<string, boolean>): Promise<MediaRow | null> {
  const media = await latestMedia(db, contentId);
  if (!media) return null;
  if (!buckets.has(media.bucketId)) {
    const bucket = await findBucketById(db, media.bucketId);
    buckets.set(media.bucketId, !!bucket && isBucketVisible(bucket, creator));
  }
  return buckets.get(media.bucketId) ? media : null;
}

/** One version as the shared page shows it: its values along the schema, its media through the link, referenced titles. */
async function sharedVersion(
  context: Services,
  token: string,
  open: { creator: User; bucket: Bucket; version: ContentVersion; latest: boolean; expiresAt: Date },
  locale: Locale,
): Promise<SharedDocument> {
  const { bucket, version, creator } = open;
  const { schema } = compileBucketSchema(bucket);
  const rows = documentRows(schema, version.data);
  const targets = diffTargets(rows.map((row) => ({ before: row.value, after: row.value })));
  const paths = sharePaths(token);
  const media: Record<string, SharedMedia> = {};
  const buckets = new Map<string, boolean>();
  for (const id of targets.media) {
    const row = await visibleMedia(context.db, creator, id, buckets);
    if (!row) continue;
    media[id] = {
      kind: row.kind,
      url: paths.media(id),
      download: paths.media(id, true),
      poster: row.kind === "video" && posterKey(row) ? paths.poster(id) : null,
      filename: row.originalFilename,
      mimetype: row.mimetype,
      width: row.width,
      height: row.height,
      ...(await textsOf(context.db, id, locale)),
    };
  }
  const titles = await referenceTitles(context, creator, targets.references);
  const references = Object.fromEntries(Object.entries(titles).map(([id, reference]) => [id, reference?.title ?? null]));
  const [entry] = await historyEntries(context.db, bucket.id, version.contentId, [version.versionId]);
  return {
    title: documentTitle(version.data, bucket.jsonSchema, bucket.locales) || bucketName(bucket, locale),
    bucketName: bucketName(bucket, locale),
    version: { number: entry?.number ?? 1, createdAt: new Date(version.createdAt).toISOString() },
    latest: open.latest,
    expiresAt: open.expiresAt.toISOString(),
    rows,
    media,
    references,
  };
}

/** What /shareables/{token} shows for a link to a document; null answers 404 (also for a link to a release). */
export async function sharedDocument(context: Services, token: string | undefined, locale: Locale): Promise<SharedDocument | null> {
  const shared = await sharedPage(context, token, locale);
  if (!shared || shared.kind !== "document") return null;
  const { kind: _kind, ...document } = shared;
  return document;
}

/** What /shareables/{token} shows: a document, or a release with its documents; null answers 404. */
export async function sharedPage(context: Services, token: string | undefined, locale: Locale): Promise<SharedPage | null> {
  const open = await openShareable(context.db, token);
  if (!open || !token) return null;
  const { share, creator } = open;
  if (open.kind === "document") {
    const document = await sharedVersion(
      context,
      token,
      { creator, bucket: open.bucket, version: open.version, latest: share.versionId === null, expiresAt: share.expiresAt },
      locale,
    );
    return { kind: "document", ...document };
  }
  const { release } = open;
  const documents: SharedRelease["documents"] = [];
  for (const item of open.items) {
    const releaseItem = release.items.find((candidate) => candidate.contentId === item.version.contentId);
    // The newest when the release is published: only while it is not published yet.
    const latest = releaseItem?.versionId === null && releaseItem.publishedVersionId === null;
    documents.push({
      contentId: item.version.contentId,
      ...(await sharedVersion(
        context,
        token,
        { creator, bucket: item.bucket, version: item.version, latest, expiresAt: share.expiresAt },
        locale,
      )),
    });
  }
  return {
    kind: "release",
    name: release.name,
    state: release.state,
    scheduledAt: release.scheduledAt?.toISOString() ?? null,
    publishedAt: release.publishedAt?.toISOString() ?? null,
    expiresAt: share.expiresAt.toISOString(),
    documents,
  };
}

/**
 * A media file the link shows: the media content must be one the shared version names (for a release link: one of
 * the versions it shows) in a field of the schema, and in a bucket the link's maker may see. Null answers 404.
 */
export async function sharedMedia(db: Queryable, token: string | undefined, mediaContentId: string | undefined): Promise<MediaRow | null> {
  if (!isUuid(mediaContentId)) return null;
  const open = await openShareable(db, token);
  if (!open) return null;
  const shown = open.kind === "document" ? [{ bucket: open.bucket, version: open.version }] : open.items;
  const named = shown.some(({ bucket, version }) =>
    mediaReferences(compileBucketSchema(bucket).schema, version.data).some((reference) => reference.contentId === mediaContentId),
  );
  return named ? visibleMedia(db, open.creator, mediaContentId, new Map()) : null;
}
