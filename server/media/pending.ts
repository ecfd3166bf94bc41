import { timingSafeEqual } from "node:crypto";
import type { Db, Queryable } from "@server/db/client";
import { hashToken, randomToken } from "@server/security/tokens";
import type { PendingFile } from "@core/media/pending";
import { isUuid } from "@core/ids";
import type { MediaFacts } from "./accept";
import type { MediaOwner, StagedMedia } from "./intake";
import type { MediaStorage } from "./storage";
import type { FileFacts } from "./store";

/** A pending upload nobody saved is removed this long after it was chosen. */
export const PENDING_UPLOAD_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export interface PendingRow extends FileFacts {
  contentId: string;
  secretHash: string;
  userId: string;
  bucketId: string;
  field: string;
  /** Extension of the detected type: the stored file's. */
  ext: string;
}

const COLUMNS = `content_id AS "contentId", secret_hash AS "secretHash", user_id AS "userId", bucket_id AS "bucketId", field, kind, ext,
  original_filename AS "originalFilename", mimetype, size::float8 AS size, width, height, details`;

/** The bucket field a form field name belongs to: list indexes left out (`rooms[2].photo` → `rooms[].photo`). */
export const bucketField = (name: string) => name.replace(/\[\d+\]/g, "[]");

/** `<contentId>.<secret>` → its parts, or null for anything else. */
export function parsePendingToken(token: string): { contentId: string; secret: string } | null {
  const [contentId, secret, ...rest] = token.split(".");
  return isUuid(contentId) && secret && /^[A-Za-z0-9_-]{20,100}$/.test(secret) && !rest.length
    ? { contentId: contentId.toLowerCase(), secret }
    : null;
}

/** Whether `secret` is the one the row was stashed with. */
export function holdsSecret(row: PendingRow, secret: string): boolean {
  const [actual, expected] = [Buffer.from(hashToken(secret)), Buffer.from(row.secretHash)];
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export const pendingFileOf = (row: PendingRow, secret: string): PendingFile => ({
  token: `${row.contentId}.${secret}`,
  contentId: row.contentId,
  kind: row.kind,
  originalFilename: row.originalFilename,
});

/** A pending upload as the save commits it. */
export function stagedFromPending(storage: MediaStorage, row: PendingRow): StagedMedia & { contentId: string } {
  const { kind, ext, originalFilename, mimetype, size, width, height, details } = row;
  return {
    pending: storage.pendingObject(row.contentId, ext),
    contentId: row.contentId,
    facts: { kind, ext, originalFilename, mimetype, size, width, height, details },
  };
}

/**
 * Keeps checked uploads of a form post that did not save: each file goes
 * into the store's pending/ and gets a row bound to its owner and bucket field. Answers
 * what the re-rendered form shows, with the tokens it carries.
 */
export async function stashPending(
  db: Db,
  storage: MediaStorage,
  items: ReadonlyArray<{ path: string; facts: MediaFacts; contentId: string; name: string }>,
  owner: MediaOwner,
): Promise<PendingFile[]> {
  const stashed: PendingFile[] = [];
  for (const item of items) {
    const secret = randomToken(24);
    const target = storage.pendingObject(item.contentId, item.facts.ext);
    await storage.stash(item.path, target);
    const { kind, ext, originalFilename, mimetype, size, width, height, details } = item.facts;
    try {
      await db.query(
        `INSERT INTO pending_uploads (content_id, secret_hash, user_id, bucket_id, field, kind, ext, original_filename, mimetype, size, width, height, details)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        [
          item.contentId,
          hashToken(secret),
          owner.userId,
          owner.bucketId,
          bucketField(item.name),
          kind,
          ext,
          originalFilename,
          mimetype,
          size,
          width,
          height,
          JSON.stringify(details),
        ],
      );
    } catch (error) {
      await storage.removePending(target);
      throw error;
    }
    stashed.push({ token: `${item.contentId}.${secret}`, contentId: item.contentId, kind, originalFilename });
  }
  return stashed;
}

export async function findPending(db: Queryable, contentIds: readonly string[]): Promise<PendingRow[]> {
  if (!contentIds.length) return [];
  const { rows } = await db.query<PendingRow>(`SELECT ${COLUMNS} FROM pending_uploads WHERE content_id = ANY($1::uuid[])`, [contentIds]);
  return rows;
}

/** Which of these contentIds are media contents already (a pending upload a save has committed meanwhile). */
export async function committedContentIds(db: Queryable, contentIds: readonly string[]): Promise<Set<string>> {
  if (!contentIds.length) return new Set();
  const { rows } = await db.query<{ contentId: string }>(
    `SELECT DISTINCT content_id AS "contentId" FROM media WHERE content_id = ANY($1::uuid[])`,
    [contentIds],
  );
  return new Set(rows.map((row) => row.contentId));
}

/** Another save took a pending upload first (a double submit): this save must not commit it twice. */
export class PendingUploadTaken extends Error {}

/** Removes the rows of pending uploads a save commits, in its transaction; all of them or PendingUploadTaken. */
export async function claimPending(tx: Queryable, contentIds: readonly string[]): Promise<void> {
  if (!contentIds.length) return;
  const { rows } = await tx.query(`DELETE FROM pending_uploads WHERE content_id = ANY($1::uuid[]) RETURNING content_id`, [contentIds]);
  if (rows.length !== new Set(contentIds).size) throw new PendingUploadTaken();
}

/**
 * Removes pending uploads older than `maxAgeMs` (their rows, then their
 * files), and pending files without a row as old (a server stopped
 * between the move and the insert). Safe on several servers at once.
 */
export async function sweepPendingUploads(db: Db, storage: MediaStorage, maxAgeMs = PENDING_UPLOAD_MAX_AGE_MS): Promise<number> {
  const { rows } = await db.query<{ contentId: string; ext: string }>(
    `DELETE FROM pending_uploads WHERE created_at < now() - make_interval(secs => $1) RETURNING content_id AS "contentId", ext`,
    [maxAgeMs / 1000],
  );
  for (const row of rows) await storage.removePending(storage.pendingObject(row.contentId, row.ext));
  return rows.length + (await storage.sweepPending(maxAgeMs));
}
