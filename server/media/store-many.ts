import type { Queryable } from "@server/db/client";
import type { JobRow, MediaRow } from "./store";

/* The media of many documents at once (GET …/any/content?populate=true, the edit page's clip cards): two queries. */

const MEDIA_COLUMNS = `id, content_id AS "contentId", kind, bucket_id AS "bucketId", storage_key AS "storageKey",
  original_filename AS "originalFilename", mimetype, size::float8 AS size, width, height, details,
  original_image_version_id AS "originalImageVersionId", created_at AS "createdAt"`;

/** The latest version of each of these media contents (along media_content_latest_idx); absent ones are left out. */
export async function latestMediaMany(db: Queryable, contentIds: readonly string[]): Promise<Map<string, MediaRow>> {
  if (!contentIds.length) return new Map();
  const { rows } = await db.query<MediaRow>(
    `SELECT DISTINCT ON (content_id) ${MEDIA_COLUMNS} FROM media WHERE content_id = ANY($1::uuid[]) ORDER BY content_id, seq DESC`,
    [contentIds],
  );
  return new Map(rows.map((row) => [row.contentId, row]));
}

/** The jobs of these media versions, by media id, in their order. */
export async function jobsOfMany(db: Queryable, mediaIds: readonly string[]): Promise<Map<string, JobRow[]>> {
  const out = new Map<string, JobRow[]>();
  if (!mediaIds.length) return out;
  const { rows } = await db.query<JobRow>(
    `SELECT id, media_id AS "mediaId", name, status, progress, attempts, error FROM jobs WHERE media_id = ANY($1::uuid[]) ORDER BY seq`,
    [mediaIds],
  );
  for (const row of rows) out.set(row.mediaId, [...(out.get(row.mediaId) ?? []), row]);
  return out;
}
