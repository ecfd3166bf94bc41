import type { Services } from "@server/services";
import { findBucketById, isBucketVisible, type Bucket } from "./buckets";
import { historyEntries, referenceTitles } from "./history";
import { getLatestVersion, getVersion, type ContentVersion } from "./store";
import { getRelease, ReleaseNotFoundError, type Release } from "./releases";
import { compileBucketSchema } from "./validator";
import { hasPermission, USER_COLUMNS, type User } from "@server/accounts/users";
import type { Queryable } from "@server/db/client";
import { mediaReferences } from "@server/media/form-upload";
import { textsOf } from "@server/media/library";
import { latestMedia, type MediaRow } from "@server/media/store";
import { posterKey } from "@server/media/stills";
import { hashToken, randomToken } from "@server/security/tokens";
import { documentTitle } from "@core/content/title";
import { diffTargets, documentRows } from "@core/content/version-diff";
import {
  LATEST,
  shareExpiry,
  sharePaths,
  shareState,
  type CreateReleaseShareInput,
  type CreateShareInput,
  type ShareListItem,
  type SharedDocument,
  type SharedMedia,
  type SharedPage,
  type SharedRelease,
} from "@core/content/shareables";
import { translate } from "@core/messages";
import { isUuid } from "@core/ids";
import { bucketName } from "@core/content/bucket-name";
import type { Locale } from "@core/locales";

/*
 * Shareable previews: an editor's read-only link to one version of a document (or its latest), or to a release (each
 * of its documents at its release version), opened without signing in. The token is 32 random bytes in the URL; the
 * table keeps its SHA-256 only. A link shows no more than its maker may see: it stops working when the maker's
 * account goes, loses the user permission or no longer sees the bucket, as well as when it expires, is revoked or
 * its document (or version, or release) is deleted. A release link shows only the documents of buckets its maker
 * sees.
 */

interface ShareRow {
  id: string;
  /** Null for a link to a release. */
  bucketId: string | null;
  contentId: string | null;
  versionId: string | null;
  /** Set for a link to a release. */
  releaseId: string | null;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

const SHARE_COLUMNS = `s.id, s.bucket_id AS "bucketId", s.content_id AS "contentId", s.version_id AS "versionId", s.release_id AS "releaseId",
  s.created_by AS "createdBy", s.created_at AS "createdAt", s.expires_at AS "expiresAt", s.revoked_at AS "revokedAt"`;

/**
 * Makes a link to a document of a bucket the user may see (the caller's guard): one version of it, or `latest`.
 * Null when the bucket holds no such document or version. The token is answered once, here.
 */
export async function createShareable(
  db: Queryable,
  user: User,
  bucket: Bucket,
  input: Pick<CreateShareInput, "contentId" | "version" | "expiry" | "expiresOn">,
): Promise<{ id: string; token: string; expiresAt: Date } | null> {
  const versionId = input.version === LATEST ? null : input.version;
  const version = versionId
    ? await getVersion(db, bucket.id, input.contentId, versionId)
    : await getLatestVersion(db, bucket.id, input.contentId);
  if (!version) return null;
  const token = randomToken(32);
  const expiresAt = shareExpiry(input);
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO shareables (token_hash, bucket_id, content_id, version_id, created_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [hashToken(token), bucket.id, input.contentId, versionId, user.id, expiresAt],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error("the shareable link was not stored");
  return { id, token, expiresAt };
}

/**
 * Makes a link to a release (any state: the page says which). Null when there is no such release. Who may make one is
 * the caller's guard (a signed-in user); the link shows only the documents of buckets its maker may see.
 */
export async function createReleaseShareable(
  db: Queryable,
  user: User,
  input: Pick<CreateReleaseShareInput, "releaseId" | "expiry" | "expiresOn">,
): Promise<{ id: string; token: string; expiresAt: Date } | null> {
  if (!isUuid(input.releaseId)) return null;
  const token = randomToken(32);
  const expiresAt = shareExpiry(input);
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO shareables (token_hash, release_id, created_by, expires_at)
     SELECT $1, r.id, $3, $4 FROM releases r WHERE r.id = $2 RETURNING id`,
    [hashToken(token), input.releaseId, user.id, expiresAt],
  );
  const id = rows[0]?.id;
  return id ? { id, token, expiresAt } : null;
}

/**
 * The links on /shareables: the user's own, every one for an admin; newest first. A link to a bucket the user may
 * no longer see is left out.
 */
/** Buckets are named in `locale`, the interface language (core/content/bucket-name.ts). */
export async function listShareables(db: Queryable, user: User, locale: Locale, now = new Date()): Promise<ShareListItem[]> {
  const admin = hasPermission(user, "admin");
  const { rows } = await db.query<
    ShareRow & { data: Record<string, unknown> | null; creatorName: string; versionNumber: number | null; releaseName: string | null }
  >(
    `SELECT ${SHARE_COLUMNS}, u.name AS "creatorName", lv.data, r.name AS "releaseName",
       (SELECT count(*)::int FROM versions o JOIN versions sv ON sv.version_id = s.version_id
          WHERE o.content_id = sv.content_id AND (o.created_at < sv.created_at OR (o.created_at = sv.created_at AND o.seq <= sv.seq))) AS "versionNumber"
     FROM shareables s JOIN users u ON u.id = s.created_by
       LEFT JOIN contents c ON c.content_id = s.content_id LEFT JOIN versions lv ON lv.version_id = c.latest_version_id
       LEFT JOIN releases r ON r.id = s.release_id
     WHERE ($1::boolean OR s.created_by = $2) AND (lv.version_id IS NOT NULL OR r.id IS NOT NULL)
     ORDER BY s.created_at DESC, s.id LIMIT 500`,
    [admin, user.id],
  );
  const buckets = new Map<string, Bucket | null>();
  const out: ShareListItem[] = [];
  for (const row of rows) {
    const common = {
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      revokedAt: row.revokedAt?.toISOString() ?? null,
      state: shareState(row, now),
      createdByName: row.creatorName,
      mine: row.createdBy === user.id,
    };
    if (row.releaseId !== null) {
      out.push({
        ...common,
        kind: "release",
        title: row.releaseName ?? "",
        bucketName: translate(locale, "shareables.release.kind"),
        bucketSlug: "",
        documentPath: `/releases/${row.releaseId}`,
        versionNumber: null,
      });
      continue;
    }
    if (row.bucketId === null || row.contentId === null || row.data === null) continue;
    if (!buckets.has(row.bucketId)) buckets.set(row.bucketId, await findBucketById(db, row.bucketId));
    const bucket = buckets.get(row.bucketId);
    if (!bucket || !isBucketVisible(bucket, user)) continue;
    out.push({
      ...common,
      kind: "document",
      title: documentTitle(row.data, bucket.jsonSchema, bucket.locales) || (bucket.singleton ? bucketName(bucket, locale) : row.contentId),
      bucketName: bucketName(bucket, locale),
      bucketSlug: bucket.slug,
      documentPath: bucket.singleton ? `/b/${bucket.slug}/edit` : `/b/${bucket.slug}/${row.contentId}/latest`,
      versionNumber: row.versionId ? row.versionNumber : null,
    });
  }
  return out;
}

/**
 * Revokes a live link: the user's own, or any for an admin, of a bucket the user may see. At once: the next request
 * with its token answers 404. False when there is no such link for this user (or it was revoked already).
 */
export async function revokeShareable(db: Queryable, user: User, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const { rows } = await db.query<{ bucketId: string | null; createdBy: string; revokedAt: Date | null }>(
    `SELECT bucket_id AS "bucketId", created_by AS "createdBy", revoked_at AS "revokedAt" FROM shareables WHERE id = $1`,
    [id],
  );
  const share = rows[0];
  if (!share || share.revokedAt) return false;
  if (share.createdBy !== user.id && !hasPermission(user, "admin")) return false;
  // A release link has no bucket: its maker (or an admin) may revoke it.
  if (share.bucketId !== null) {
    const bucket = await findBucketById(db, share.bucketId);
    if (!bucket || !isBucketVisible(bucket, user)) return false;
  }
  const { rowCount } = await db.query("UPDATE shareables SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL", [id]);
  return rowCount > 0;
}

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
