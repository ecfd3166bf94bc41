import type { Db, Queryable } from "@server/db/client";
import { recordActivity, type Actor } from "@server/admin/activity";
import type { User } from "@server/accounts/users";
import { documentTitle } from "@core/content/title";
import { REVIEW_NOTE_MAX } from "@core/content/publication";
import { ContentNotFoundError, VersionNotFoundError } from "./store";
import { isBucketVisible, type Bucket } from "./buckets";

/*
 * Asking for review (docs/publishing.md): an editor who may not publish asks the publishers of a document's bucket to
 * look at a version and publish it. One request is open per document; publishing the document closes it
 * (closeReviewsOnPublish, inside the publish's transaction), and a publisher can close it without publishing.
 */

export interface ReviewRequest {
  id: string;
  contentId: string;
  bucketId: string;
  versionId: string;
  requesterId: string | null;
  requesterName: string;
  note: string;
  createdAt: Date;
}

type ReviewBucket = Pick<Bucket, "id" | "slug" | "jsonSchema" | "locales">;

const COLUMNS = `id, content_id AS "contentId", bucket_id AS "bucketId", version_id AS "versionId",
  requester_id AS "requesterId", requester_name AS "requesterName", note, created_at AS "createdAt"`;

/** The document's open request, or null. */
export async function openReviewOf(db: Queryable, contentId: string): Promise<ReviewRequest | null> {
  const { rows } = await db.query<ReviewRequest>(`SELECT ${COLUMNS} FROM review_requests WHERE content_id = $1 AND closed_at IS NULL`, [
    contentId,
  ]);
  return rows[0] ?? null;
}

/**
 * Asks for review of a version of a document (its newest, or the one the editor saw): opens the document's request or
 * moves its open one to this version, message and asker; records it in the activity log. Throws ContentNotFoundError
 * or VersionNotFoundError for a document or version not in the bucket.
 */
export async function askForReview(
  db: Db,
  actor: Actor,
  target: { bucket: ReviewBucket; contentId: string; versionId: string; note: string },
): Promise<{ request: ReviewRequest; title: string }> {
  const note = target.note.trim();
  if (note.length > REVIEW_NOTE_MAX) throw new RangeError("review note too long");
  return db.transaction(async (tx) => {
    const { rows: found } = await tx.query<{ data: Record<string, unknown> }>(
      `SELECT v.data FROM contents c JOIN versions v ON v.content_id = c.content_id
       WHERE c.content_id = $1 AND c.bucket_id = $2 AND v.version_id = $3`,
      [target.contentId, target.bucket.id, target.versionId],
    );
    if (!found[0]) {
      const { rows } = await tx.query("SELECT 1 FROM contents WHERE content_id = $1 AND bucket_id = $2", [
        target.contentId,
        target.bucket.id,
      ]);
      throw rows.length ? new VersionNotFoundError(target.versionId) : new ContentNotFoundError(target.contentId);
    }
    const { rows } = await tx.query<ReviewRequest>(
      `INSERT INTO review_requests (content_id, bucket_id, version_id, requester_id, requester_name, note)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (content_id) WHERE closed_at IS NULL DO UPDATE SET version_id = EXCLUDED.version_id,
         requester_id = EXCLUDED.requester_id, requester_name = EXCLUDED.requester_name, note = EXCLUDED.note,
         created_at = now()
       RETURNING ${COLUMNS}`,
      [target.contentId, target.bucket.id, target.versionId, actor.id, actor.name, note],
    );
    const title = documentTitle(found[0].data, target.bucket.jsonSchema, target.bucket.locales);
    await recordActivity(tx, actor, {
      area: "document",
      action: "reviewAsked",
      subject: title,
      details: { bucket: target.bucket.slug, bucketId: target.bucket.id, contentId: target.contentId, versionId: target.versionId },
    });
    const [request] = rows;
    if (!request) throw new Error("askForReview: the request was not stored");
    return { request, title };
  });
}

/** Closes the document's open request without publishing (a publisher's choice); false when none was open. */
export async function closeReview(
  db: Db,
  actor: Actor,
  target: { bucket: ReviewBucket; contentId: string; title: string },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rowCount } = await tx.query(
      `UPDATE review_requests SET closed_at = now(), closed_by_name = $3
       WHERE content_id = $1 AND bucket_id = $2 AND closed_at IS NULL`,
      [target.contentId, target.bucket.id, actor.name],
    );
    if (!rowCount) return false;
    await recordActivity(tx, actor, {
      area: "document",
      action: "reviewClosed",
      subject: target.title,
      details: { bucket: target.bucket.slug, bucketId: target.bucket.id, contentId: target.contentId },
    });
    return true;
  });
}

/** Publishing answers a request: the open requests of the documents published are closed (in the publish's transaction). */
export async function closeReviewsOnPublish(tx: Queryable, actor: Actor, contentIds: readonly string[]): Promise<void> {
  if (contentIds.length === 0) return;
  await tx.query(
    `UPDATE review_requests SET closed_at = clock_timestamp(), closed_by_name = $2 WHERE content_id = ANY ($1::uuid[]) AND closed_at IS NULL`,
    [contentIds, actor.name],
  );
}

export interface WaitingReview extends ReviewRequest {
  bucket: Pick<Bucket, "slug" | "name" | "names" | "screen" | "singleton">;
  title: string;
}

/** The open requests in the buckets the user may see, newest first (a publisher's home page). */
export async function waitingReviews(db: Queryable, user: Pick<User, "buckets">, limit = 20): Promise<WaitingReview[]> {
  const { rows } = await db.query<ReviewRequest & { bucket: Bucket; data: Record<string, unknown> }>(
    `SELECT r.id, r.content_id AS "contentId", r.bucket_id AS "bucketId", r.version_id AS "versionId",
            r.requester_id AS "requesterId", r.requester_name AS "requesterName", r.note, r.created_at AS "createdAt",
            json_build_object('slug', b.slug, 'name', b.name, 'names', b.names, 'screen', b.screen, 'singleton', b.singleton,
              'private', b.private,
              'jsonSchema', b.json_schema, 'locales', b.locales) AS bucket,
            v.data
     FROM review_requests r
     JOIN buckets b ON b.id = r.bucket_id
     JOIN contents c ON c.content_id = r.content_id
     JOIN versions v ON v.version_id = c.latest_version_id
     WHERE r.closed_at IS NULL AND NOT b.private AND ($1::text[] IS NULL OR b.slug = ANY ($1::text[]))
     ORDER BY r.created_at DESC LIMIT $2`,
    [user.buckets, limit],
  );
  return rows
    .filter((row) => isBucketVisible(row.bucket, user))
    .map(({ bucket, data, ...request }) => ({
      ...request,
      createdAt: new Date(request.createdAt),
      bucket: { slug: bucket.slug, name: bucket.name, names: bucket.names, screen: bucket.screen, singleton: bucket.singleton },
      title: documentTitle(data, bucket.jsonSchema, bucket.locales),
    }));
}

/** Who is told of a request: active users who may publish (the permission, or admins) and may see the bucket. */
export async function reviewersOf(
  db: Queryable,
  bucket: Pick<Bucket, "slug" | "private">,
): Promise<Pick<User, "id" | "name" | "email" | "locale">[]> {
  if (bucket.private) return [];
  const { rows } = await db.query<Pick<User, "id" | "name" | "email" | "locale">>(
    `SELECT id, name, email, locale FROM users
     WHERE deactivated_at IS NULL AND permissions && ARRAY['publish', 'admin']::text[]
       AND (buckets IS NULL OR $1 = ANY (buckets))
     ORDER BY name`,
    [bucket.slug],
  );
  return rows;
}
