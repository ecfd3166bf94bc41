import type { Logger } from "pino";
import type { Db, Queryable } from "@server/db/client";
import type { MediaStorage } from "./storage";

/*
 * Media of a deleted bucket. Media rows belong to the bucket they were uploaded to (media.bucket_id, ON DELETE
 * CASCADE), so deleting the bucket deletes its rows and jobs; their files are scheduled here, in the same
 * transaction, and removed by removeScheduledMedia after the commit and by the media sweep (server/media/start.ts)
 * should that first attempt not finish. A media content that a document of ANOTHER bucket still names (its latest
 * version holds the contentId) is not removed: it moves to that bucket, so the other document keeps its image.
 */

/** Moves still-used media to the bucket that uses them and schedules the files of the rest; the count scheduled. */
export async function scheduleBucketMediaRemoval(tx: Queryable, bucketId: string): Promise<{ scheduled: number; kept: number }> {
  const { rows: has } = await tx.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM media WHERE bucket_id = $1) AS any`, [bucketId]);
  if (!has[0]?.any) return { scheduled: 0, kept: 0 };
  const { rows: kept } = await tx.query<{ contentId: string }>(
    `WITH used AS (
       SELECT DISTINCT ON (m.content_id) m.content_id, c.bucket_id AS user_bucket
       FROM (SELECT DISTINCT content_id FROM media WHERE bucket_id = $1) m
       JOIN contents c ON c.bucket_id <> $1
       JOIN versions v ON v.version_id = c.latest_version_id
       WHERE strpos(v.data::text, m.content_id::text) > 0
       ORDER BY m.content_id, c.bucket_id
     )
     UPDATE media SET bucket_id = used.user_bucket FROM used
     WHERE media.content_id = used.content_id AND media.bucket_id = $1
     RETURNING media.content_id AS "contentId"`,
    [bucketId],
  );
  const scheduled = await scheduleRemovalOf(tx, "bucket_id = $1", [bucketId]);
  return { scheduled, kept: new Set(kept.map((row) => row.contentId)).size };
}

/**
 * Schedules the files of the media versions `where` selects (every file a version has: the upload, a video's
 * rendition and stills) for removal after the commit; the count newly scheduled. A file another version still shows
 * stays (a use item's version shows its shared item's file: server/media/use-items.ts).
 */
export async function scheduleRemovalOf(tx: Queryable, where: string, params: unknown[]): Promise<number> {
  const { rows } = await tx.query<{ count: number }>(
    `WITH chosen AS (SELECT id, details, storage_key FROM media WHERE ${where}), keys AS (
       SELECT storage_key AS key FROM chosen
       UNION SELECT details->>'renditionKey' FROM chosen WHERE details ? 'renditionKey'
       UNION SELECT details->>'customStillKey' FROM chosen WHERE details ? 'customStillKey'
       UNION SELECT jsonb_array_elements_text(details->'stillKeys') FROM chosen WHERE jsonb_typeof(details->'stillKeys') = 'array'
     ), added AS (
       INSERT INTO media_removals (storage_key) SELECT key FROM keys WHERE key IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM media o WHERE o.storage_key = keys.key AND o.id NOT IN (SELECT id FROM chosen))
       ON CONFLICT (storage_key) DO NOTHING RETURNING 1
     )
     SELECT count(*)::int AS count FROM added`,
    params,
  );
  return rows[0]?.count ?? 0;
}

/** Removes scheduled files (a batch at a time) and their rows; a file already gone counts as removed. */
export async function removeScheduledMedia(db: Db, storage: MediaStorage, logger?: Logger, batch = 500): Promise<number> {
  let removed = 0;
  for (;;) {
    const { rows } = await db.query<{ key: string }>(`SELECT storage_key AS key FROM media_removals ORDER BY scheduled_at LIMIT $1`, [
      batch,
    ]);
    if (rows.length === 0) return removed;
    for (const { key } of rows) {
      try {
        await storage.removeKey(key);
      } catch (error) {
        // Not a storage key of ours (never written by this server): nothing to remove on disk.
        logger?.warn({ err: error, key }, "a scheduled media removal names no media file");
      }
    }
    await db.query(`DELETE FROM media_removals WHERE storage_key = ANY($1::text[])`, [rows.map((row) => row.key)]);
    removed += rows.length;
    if (rows.length < batch) return removed;
  }
}
