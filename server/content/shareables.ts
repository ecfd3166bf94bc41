import { findBucketById, isBucketVisible, type Bucket } from "./buckets";
import { getLatestVersion, getVersion } from "./store";
import { hasPermission, type User } from "@server/accounts/users";
import type { Queryable } from "@server/db/client";
import { hashToken, randomToken } from "@server/security/tokens";
import { documentTitle } from "@core/content/title";
import {
  LATEST,
  shareExpiry,
  shareState,
  type CreateReleaseShareInput,
  type CreateShareInput,
  type ShareListItem,
} from "@core/content/shareables";
import { translate } from "@core/messages";
import { isUuid } from "@core/ids";
import { bucketName } from "@core/content/bucket-name";
import type { Locale } from "@core/locales";

/*
 * Shareable previews: an editor's read-only link to one version of a document (or its latest), or to a release (each
 * of its documents at its release version), opened without signing in. This file makes, lists and revokes the links;
 * what an opened link shows is shared-previews.ts. The token is 32 random bytes in the URL; the table keeps its
 * SHA-256 only. A link shows no more than its maker may see: it stops working when the maker's account goes, loses
 * the user permission or no longer sees the bucket, as well as when it expires, is revoked or its document (or
 * version, or release) is deleted. A release link shows only the documents of buckets its maker sees.
 */

export interface ShareRow {
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

export const SHARE_COLUMNS = `s.id, s.bucket_id AS "bucketId", s.content_id AS "contentId", s.version_id AS "versionId", s.release_id AS "releaseId",
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
