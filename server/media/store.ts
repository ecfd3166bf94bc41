import type { Queryable } from "@server/db/client";
import type { MediaKind } from "@core/media/bounds";
import type { CropCoordinates, JobName, JobStatus, Thumb } from "@core/media/wire";

export type { JobName, JobStatus } from "@core/media/wire";

export interface MediaDetails {
  fps?: number;
  codec?: string;
  duration?: number;
  hasAudio?: boolean;
  crop?: CropCoordinates;
  /** Storage key of the web-playable rendition of a video. */
  renditionKey?: string;
  /** Storage keys of the extracted stills, by index. */
  stillKeys?: string[];
  /** Storage key of a custom still. */
  customStillKey?: string;
  /** Pixel size of the custom still (spec §5: a still smaller than the video asks a confirmation). */
  customStillSize?: { width: number; height: number };
  thumb?: Thumb;
}

export type { CropCoordinates } from "@core/media/wire";

/** What a media file is: its name as uploaded, its type and size, and what the checks measured. */
export interface FileFacts {
  kind: MediaKind;
  originalFilename: string;
  mimetype: string;
  size: number;
  width: number | null;
  height: number | null;
  details: MediaDetails;
}

export interface MediaRow extends FileFacts {
  id: string;
  contentId: string;
  bucketId: string;
  storageKey: string;
  originalImageVersionId: string | null;
  createdAt: Date;
}

export interface JobRow {
  id: string;
  mediaId: string;
  name: JobName;
  status: JobStatus;
  progress: number;
  attempts: number;
  error: string | null;
}

const MEDIA_COLUMNS = `id, content_id AS "contentId", kind, bucket_id AS "bucketId", storage_key AS "storageKey",
  original_filename AS "originalFilename", mimetype, size::float8 AS size, width, height, details,
  original_image_version_id AS "originalImageVersionId", created_at AS "createdAt"`;
const JOB_COLUMNS = `id, media_id AS "mediaId", name, status, progress, attempts, error`;

export interface NewMedia
  extends Omit<FileFacts, "width" | "height" | "details">, Partial<Pick<FileFacts, "width" | "height" | "details">> {
  contentId?: string;
  bucketId: string;
  storageKey: string;
  originalImageVersionId?: string | null;
  createdBy: string | null;
}

/** A new media version (a new contentId unless one is given) and its jobs, in one transaction. */
export async function insertMedia(db: Queryable, media: NewMedia, jobs: JobName[] = []): Promise<MediaRow> {
  const { rows } = await db.query<MediaRow>(
    `INSERT INTO media (content_id, kind, bucket_id, storage_key, original_filename, mimetype, size, width, height, details, original_image_version_id, created_by)
     VALUES (coalesce($1::uuid, gen_random_uuid()), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     RETURNING ${MEDIA_COLUMNS}`,
    [
      media.contentId ?? null,
      media.kind,
      media.bucketId,
      media.storageKey,
      media.originalFilename,
      media.mimetype,
      media.size,
      media.width ?? null,
      media.height ?? null,
      JSON.stringify(media.details ?? {}),
      media.originalImageVersionId ?? null,
      media.createdBy,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error("inserting a media version returned no row");
  for (const name of jobs) await db.query(`INSERT INTO jobs (media_id, name) VALUES ($1, $2)`, [row.id, name]);
  return row;
}

export async function latestMedia(db: Queryable, contentId: string, kind?: MediaKind): Promise<MediaRow | null> {
  const { rows } = await db.query<MediaRow>(
    `SELECT ${MEDIA_COLUMNS} FROM media WHERE content_id = $1 ${kind ? "AND kind = $2" : ""} ORDER BY seq DESC LIMIT 1`,
    kind ? [contentId, kind] : [contentId],
  );
  return rows[0] ?? null;
}

export async function mediaVersion(db: Queryable, id: string): Promise<MediaRow | null> {
  const { rows } = await db.query<MediaRow>(`SELECT ${MEDIA_COLUMNS} FROM media WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

export async function jobsOf(db: Queryable, mediaId: string): Promise<JobRow[]> {
  const { rows } = await db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE media_id = $1 ORDER BY seq`, [mediaId]);
  return rows;
}

/** Merges keys into a media version's details. */
export async function updateMediaDetails(db: Queryable, id: string, details: Partial<MediaDetails>): Promise<void> {
  await db.query(`UPDATE media SET details = details || $2::jsonb WHERE id = $1`, [id, JSON.stringify(details)]);
}

/** Selects a video version's thumb (spec §3: a still index, or the custom still). */
export async function setThumb(db: Queryable, id: string, thumb: NonNullable<MediaDetails["thumb"]>): Promise<MediaRow | null> {
  const { rows } = await db.query<MediaRow>(
    `UPDATE media SET details = details || jsonb_build_object('thumb', $2::jsonb) WHERE id = $1 RETURNING ${MEDIA_COLUMNS}`,
    [id, JSON.stringify(thumb)],
  );
  return rows[0] ?? null;
}

/**
 * Records a video version's custom still; answers the key it replaced (its file
 * is the caller's to delete) and the updated row. The previous key is read in
 * the same statement, so two uploads at once each learn the key they replaced.
 */
export async function setCustomStill(
  db: Queryable,
  id: string,
  still: { key: string; width: number; height: number },
): Promise<{ media: MediaRow; previousKey: string | null } | null> {
  const { rows } = await db.query<MediaRow & { previousKey: string | null }>(
    `UPDATE media SET details = details || jsonb_build_object('customStillKey', $2::text, 'customStillSize', $3::jsonb)
     FROM (SELECT id AS before_id, details->>'customStillKey' AS previous_key FROM media WHERE id = $1 FOR UPDATE) AS before
     WHERE id = before.before_id
     RETURNING ${MEDIA_COLUMNS}, before.previous_key AS "previousKey"`,
    [id, still.key, JSON.stringify({ width: still.width, height: still.height })],
  );
  const row = rows[0];
  if (!row) return null;
  const { previousKey, ...media } = row;
  return { media, previousKey };
}

/**
 * Records the stills of a still-creation job without undoing a thumb chosen
 * meanwhile: the first still becomes the thumb only when none is selected now.
 */
export async function recordStills(db: Queryable, id: string, stillKeys: string[]): Promise<void> {
  await db.query(
    `UPDATE media SET details = details || jsonb_build_object('stillKeys', $2::jsonb)
       || CASE WHEN details ? 'thumb' THEN '{}'::jsonb ELSE '{"thumb": {"index": 0}}'::jsonb END
     WHERE id = $1`,
    [id, JSON.stringify(stillKeys)],
  );
}

/** How long a claimed job is an attempt's without a renewal (MEDIA_JOB_LEASE_SECONDS). */
export const LEASE_SECONDS = 60;

/**
 * Claims the oldest job that is due: new and past its retry time (`run_after`, the backoff of a failed attempt),
 * or processing with its lease run out (its runner died).
 */
export async function claimJob(db: Queryable, leaseSeconds = LEASE_SECONDS): Promise<(JobRow & { media: MediaRow }) | null> {
  const { rows } = await db.query<JobRow>(
    `UPDATE jobs SET status = 'processing', attempts = attempts + 1, lease_until = now() + make_interval(secs => $1), updated_at = now()
     WHERE id = (
       SELECT id FROM jobs
       WHERE (status = 'new' AND run_after <= now()) OR (status = 'processing' AND lease_until < now())
       ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING ${JOB_COLUMNS}`,
    [leaseSeconds],
  );
  const job = rows[0];
  if (!job) return null;
  const media = await mediaVersion(db, job.mediaId);
  return media ? { ...job, media } : null;
}

/**
 * A job attempt: the job and its attempt number, which fences it. Another server may claim a job whose lease ran out
 * (its runner paused or cut off): the attempt number then moves on, and the old attempt's renewals, outputs and
 * finish change nothing.
 */
export interface JobAttempt {
  jobId: string;
  attempt: number;
}

const OWNED = "id = $1 AND attempts = $2 AND status = 'processing'";

/** Renews the attempt's lease; false when the job is no longer this attempt's. */
export async function renewLease(db: Queryable, owner: JobAttempt, progress: number, leaseSeconds = LEASE_SECONDS): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE jobs SET progress = $3, lease_until = now() + make_interval(secs => $4), updated_at = now() WHERE ${OWNED}`,
    [owner.jobId, owner.attempt, progress, leaseSeconds],
  );
  return rowCount > 0;
}

/** Whether the job is still this attempt's, locking its row until the transaction ends (outputs are recorded under it). */
export async function holdsJob(tx: Queryable, owner: JobAttempt): Promise<boolean> {
  const { rows } = await tx.query(`SELECT 1 FROM jobs WHERE ${OWNED} FOR UPDATE`, [owner.jobId, owner.attempt]);
  return rows.length > 0;
}

/**
 * Gives jobs a stopping server's workers held back to the queue, due at once and the attempt not counted: another
 * server takes them at its next look instead of after the lease.
 */
export async function handBackJobs(db: Queryable, jobIds: readonly string[]): Promise<void> {
  if (!jobIds.length) return;
  await db.query(
    `UPDATE jobs SET status = 'new', attempts = greatest(attempts - 1, 0), lease_until = NULL, run_after = now(), updated_at = now()
     WHERE id = ANY($1::uuid[]) AND status = 'processing'`,
    [jobIds],
  );
}

/** How an attempt ended: `new` queues the job again, due once `retryAfterMs` have passed. */
export type JobOutcome = { status: "completed" } | { status: "failed"; error: string } | { status: "new"; retryAfterMs: number };

export async function finishJob(db: Queryable, owner: JobAttempt, outcome: JobOutcome): Promise<void> {
  await db.query(
    `UPDATE jobs SET status = $3, progress = CASE WHEN $3 = 'completed' THEN 100 ELSE progress END,
       error = $4, lease_until = NULL, updated_at = now(),
       run_after = CASE WHEN $3 = 'new' THEN now() + $5::float8 * interval '1 millisecond' ELSE run_after END
     WHERE ${OWNED}`,
    [
      owner.jobId,
      owner.attempt,
      outcome.status,
      "error" in outcome ? outcome.error : null,
      "retryAfterMs" in outcome ? outcome.retryAfterMs : 0,
    ],
  );
}
