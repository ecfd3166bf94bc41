import type { Db, Queryable } from "@server/db/client";
import { isUuid } from "@core/ids";
import { recordActivity, type Actor } from "@server/admin/activity";
import { enqueueReleaseDeliveriesSql } from "@server/webhooks/outbox";
import { isReleasePublishable, isReleaseRollbackable } from "@core/content/release";
import { applyPublications } from "./publishing";
import {
  lockRelease,
  readReleaseSummary,
  ReleaseNotEditableError,
  ReleaseNotFoundError,
  ReleaseNotPublishedError,
  type ReleaseSummary,
} from "./releases";

/*
 * A release going live and coming back (docs/publishing.md, Releases): publishing it now, or when it falls due (the
 * release poller, release-scheduler.ts, calls publishDueReleases), and rolling it back. Every change of what is
 * published goes through applyPublications (publishing.ts), as a single document's publish does: the same
 * publications rows (with the release's id), webhooks and activity rows. Who may publish is the caller's check
 * (mayPublish).
 */

export interface ReleaseOutcome {
  release: ReleaseSummary;
  /** How many documents' published version changed (the others had that version published already). */
  changed: number;
}

interface ItemRow {
  contentId: string;
  versionId: string | null;
  previousVersionId: string | null;
  bucketId: string;
  slug: string;
  jsonSchema: Record<string, unknown>;
  locales: string[];
}

async function lockedItems(tx: Queryable, releaseId: string): Promise<ItemRow[]> {
  const { rows } = await tx.query<ItemRow>(
    `SELECT i.content_id AS "contentId", i.version_id AS "versionId", i.previous_version_id AS "previousVersionId",
            b.id AS "bucketId", b.slug, b.json_schema AS "jsonSchema", b.locales
     FROM release_items i JOIN buckets b ON b.id = i.bucket_id
     WHERE i.release_id = $1 ORDER BY i.added_at, i.content_id`,
    [releaseId],
  );
  return rows;
}

const bucketOf = (row: ItemRow) => ({ id: row.bucketId, slug: row.slug, jsonSchema: row.jsonSchema, locales: row.locales });

/** How a publish and a rollback end: the release's new state and who set it, its webhook event, its activity. */
const ROLLOUT_ENDS = {
  published: {
    update: `UPDATE releases SET state = 'published', published_at = clock_timestamp(), published_by_id = $2, published_by_name = $3
             WHERE id = $1`,
    event: "release.published",
    action: "releasePublished",
  },
  rolledBack: {
    update: `UPDATE releases SET state = 'rolled_back', rolled_back_at = clock_timestamp(), rolled_back_by_id = $2, rolled_back_by_name = $3
             WHERE id = $1`,
    event: "release.rolled_back",
    action: "releaseRolledBack",
  },
} as const;

/** The end of a publish or a rollback, in its transaction: the release's state, its webhook, its activity row. */
async function endRollout(
  tx: Queryable,
  actor: Actor,
  end: (typeof ROLLOUT_ENDS)[keyof typeof ROLLOUT_ENDS],
  release: { id: string; name: string },
  documents: number,
  applied: readonly { changed: boolean }[],
): Promise<ReleaseOutcome> {
  await tx.query(end.update, [release.id, actor.id, actor.name]);
  await tx.query(`WITH hooks AS (${enqueueReleaseDeliveriesSql(end.event, { release: "$1::uuid" })}) SELECT 1`, [release.id]);
  const changed = applied.filter((item) => item.changed).length;
  await recordActivity(tx, actor, {
    area: "document",
    action: end.action,
    subject: release.name,
    details: { releaseId: release.id, documents, changed },
  });
  return { release: await readReleaseSummary(tx, release.id), changed };
}

/**
 * Publishes an open or scheduled release in the caller's transaction: every document at its version, the version
 * published before kept on its item (what a rollback returns to), the release published, its webhook and activity
 * row. Throws ReleaseNotEditableError when it is published or rolled back already.
 */
export async function publishReleaseInTransaction(tx: Queryable, actor: Actor, releaseId: string): Promise<ReleaseOutcome> {
  const release = await lockRelease(tx, releaseId);
  if (!isReleasePublishable(release.state)) throw new ReleaseNotEditableError(releaseId, release.state);
  const items = await lockedItems(tx, releaseId);
  const applied = await applyPublications(
    tx,
    actor,
    items.map((item) => ({ bucket: bucketOf(item), contentId: item.contentId, versionId: item.versionId })),
    { releaseId },
  );
  if (applied.length)
    await tx.query(
      `UPDATE release_items i SET published_version_id = t.version_id, previous_version_id = t.previous_version_id
       FROM jsonb_to_recordset($2::jsonb) AS t(content_id uuid, version_id uuid, previous_version_id uuid)
       WHERE i.release_id = $1 AND i.content_id = t.content_id`,
      [
        releaseId,
        JSON.stringify(
          applied.map((item) => ({ content_id: item.contentId, version_id: item.versionId, previous_version_id: item.previousVersionId })),
        ),
      ],
    );
  return endRollout(tx, actor, ROLLOUT_ENDS.published, { id: releaseId, name: release.name }, items.length, applied);
}

/** Publishes an open or scheduled release now, in one transaction: all its documents go live together, or none. */
export async function publishRelease(db: Db, actor: Actor, releaseId: string): Promise<ReleaseOutcome> {
  if (!isUuid(releaseId)) throw new ReleaseNotFoundError(releaseId);
  return db.transaction((tx) => publishReleaseInTransaction(tx, actor, releaseId));
}

/**
 * Rolls a published release back in one transaction: every document goes back to the version published before the
 * release (taken off where none was), the release is rolled back, its webhook and activity row. A document changed
 * by hand since goes back too. Throws ReleaseNotPublishedError unless the release is published.
 */
export async function rollbackRelease(db: Db, actor: Actor, releaseId: string): Promise<ReleaseOutcome> {
  if (!isUuid(releaseId)) throw new ReleaseNotFoundError(releaseId);
  return db.transaction(async (tx) => {
    const release = await lockRelease(tx, releaseId);
    if (!isReleaseRollbackable(release.state)) throw new ReleaseNotPublishedError(releaseId, release.state);
    const items = await lockedItems(tx, releaseId);
    const applied = await applyPublications(
      tx,
      actor,
      items.map((item) =>
        item.previousVersionId
          ? { bucket: bucketOf(item), contentId: item.contentId, versionId: item.previousVersionId }
          : { bucket: bucketOf(item), contentId: item.contentId, unpublish: true },
      ),
      { releaseId },
    );
    return endRollout(tx, actor, ROLLOUT_ENDS.rolledBack, { id: releaseId, name: release.name }, items.length, applied);
  });
}

/**
 * Publishes the scheduled releases due at `now`, each in its own transaction, and answers their ids. A release is
 * claimed with FOR UPDATE SKIP LOCKED in the transaction that publishes it: with several servers on one database,
 * one takes it and the others pass it by (and find it published once that commits), so it is published exactly
 * once. It is published in the name of who scheduled it. A release whose publish fails stays scheduled (and is
 * tried again at the next poll); `onError` is told.
 */
export async function publishDueReleases(db: Db, now: Date, onError?: (releaseId: string, error: unknown) => void): Promise<string[]> {
  const published: string[] = [];
  const failed: string[] = [];
  for (;;) {
    let claimed: string | null = null;
    try {
      claimed = await db.transaction(async (tx) => {
        const { rows } = await tx.query<{ id: string; actorId: string | null; actorName: string | null }>(
          `SELECT id, scheduled_by_id AS "actorId", scheduled_by_name AS "actorName" FROM releases
           WHERE state = 'scheduled' AND scheduled_at <= $1 AND NOT (id = ANY ($2::uuid[]))
           ORDER BY scheduled_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
          [now, failed],
        );
        const due = rows[0];
        if (!due) return null;
        claimed = due.id;
        await publishReleaseInTransaction(tx, { id: due.actorId, name: due.actorName ?? "Scheduled release" }, due.id);
        return due.id;
      });
    } catch (error) {
      if (!claimed) throw error;
      failed.push(claimed);
      onError?.(claimed, error);
      continue;
    }
    if (!claimed) return published;
    published.push(claimed);
  }
}
