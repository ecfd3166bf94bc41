import type { Queryable } from "@server/db/client";
import { publicationState, type PublicationState } from "@core/content/publication";

/*
 * What exhibits get of a document, read (docs/publishing.md): its publication state (draft, published, changed,
 * unpublished, scheduled in a release), its newest and published versions, and when and by whom that last changed.
 * Changing it is publishing.ts.
 */

export interface Publication {
  state: PublicationState;
  latestVersionId: string;
  publishedVersionId: string | null;
  /** When what exhibits get last changed (published, or taken off). */
  changedAt: Date | null;
  /** Who made that change (null: before publishing existed, or a removed user). */
  changedBy: string | null;
}

/** Whether the document of `contents` row `alias` is in a release scheduled to go live (release_items_content_idx). */
export const inScheduledReleaseSql = (alias: string): string =>
  `EXISTS (SELECT 1 FROM release_items ri JOIN releases r ON r.id = ri.release_id
           WHERE ri.content_id = ${alias}.content_id AND r.state = 'scheduled')`;

/** The publication states of these documents of a bucket, by contentId (lower case); one query. */
export async function publicationStates(
  db: Queryable,
  bucketId: string,
  contentIds: readonly string[],
): Promise<Map<string, PublicationState>> {
  if (!contentIds.length) return new Map();
  const { rows } = await db.query<{
    contentId: string;
    latestVersionId: string;
    publishedVersionId: string | null;
    unpublishedAt: Date | null;
    scheduled: boolean;
  }>(
    `SELECT c.content_id AS "contentId", c.latest_version_id AS "latestVersionId", c.published_version_id AS "publishedVersionId",
            c.unpublished_at AS "unpublishedAt", ${inScheduledReleaseSql("c")} AS scheduled
     FROM contents c WHERE c.bucket_id = $1 AND c.content_id = ANY($2::uuid[])`,
    [bucketId, contentIds],
  );
  return new Map(rows.map((row) => [row.contentId.toLowerCase(), publicationState(row)]));
}

export async function publicationOf(db: Queryable, bucketId: string, contentId: string): Promise<Publication | null> {
  const { rows } = await db.query<{
    latestVersionId: string;
    publishedVersionId: string | null;
    publishedAt: Date | null;
    unpublishedAt: Date | null;
    scheduled: boolean;
    changedBy: string | null;
  }>(
    `SELECT c.latest_version_id AS "latestVersionId", c.published_version_id AS "publishedVersionId",
            c.published_at AS "publishedAt", c.unpublished_at AS "unpublishedAt", ${inScheduledReleaseSql("c")} AS scheduled,
            (SELECT p.actor_name FROM publications p WHERE p.content_id = c.content_id ORDER BY p.seq DESC LIMIT 1) AS "changedBy"
     FROM contents c WHERE c.content_id = $1 AND c.bucket_id = $2`,
    [contentId, bucketId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    state: publicationState(row),
    latestVersionId: row.latestVersionId,
    publishedVersionId: row.publishedVersionId,
    changedAt: row.unpublishedAt ?? row.publishedAt,
    changedBy: row.changedBy,
  };
}
