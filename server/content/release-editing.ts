import type { Db, Queryable } from "@server/db/client";
import { isUuid } from "@core/ids";
import { recordActivity, type Actor } from "@server/admin/activity";
import { isReleaseEditable, RELEASE_NAME_MAX } from "@core/content/release";
import { ContentNotFoundError, VersionNotFoundError } from "./store";
import {
  lockRelease,
  readReleaseSummary,
  ReleaseNameError,
  ReleaseNotEditableError,
  ReleaseScheduleError,
  type ReleaseSummary,
} from "./releases";

/*
 * Changing a release while it is open or scheduled (docs/publishing.md, Releases): making one, renaming it, adding and
 * removing documents, scheduling it and taking the schedule back. Each function locks the release's row (lockRelease,
 * releases.ts) and refuses with ReleaseNotEditableError once it is published or rolled back. Publishing it and rolling
 * it back: release-rollout.ts.
 */

/** The time zone a schedule is entered and shown in: the server's (TZ), where the exhibits are. */
export const exhibitTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

function validName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new ReleaseNameError("empty");
  if (trimmed.length > RELEASE_NAME_MAX) throw new ReleaseNameError("tooLong");
  return trimmed;
}

async function lockEditable(tx: Queryable, releaseId: string) {
  const release = await lockRelease(tx, releaseId);
  if (!isReleaseEditable(release.state)) throw new ReleaseNotEditableError(releaseId, release.state);
  return release;
}

export async function createRelease(db: Queryable, actor: Actor, input: { name: string }): Promise<ReleaseSummary> {
  const name = validName(input.name);
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO releases (name, created_by_id, created_by_name) VALUES ($1, $2, $3) RETURNING id`,
    [name, actor.id, actor.name],
  );
  const created = rows[0];
  if (!created) throw new Error("the release was not created");
  return readReleaseSummary(db, created.id);
}

export async function renameRelease(db: Db, actor: Actor, releaseId: string, name: string): Promise<ReleaseSummary> {
  const valid = validName(name);
  return db.transaction(async (tx) => {
    await lockEditable(tx, releaseId);
    await tx.query(`UPDATE releases SET name = $2 WHERE id = $1`, [releaseId, valid]);
    return readReleaseSummary(tx, releaseId);
  });
}

/**
 * Adds a document to an open or scheduled release at a version (null or absent: its newest when the release is
 * published); a document already in it gets the new choice. Throws ContentNotFoundError (not in that bucket) and
 * VersionNotFoundError (not one of its versions).
 */
export async function addToRelease(
  db: Db,
  actor: Actor,
  releaseId: string,
  document: { bucketId: string; contentId: string; versionId?: string | null },
): Promise<void> {
  if (!isUuid(document.contentId)) throw new ContentNotFoundError(document.contentId);
  if (document.versionId && !isUuid(document.versionId)) throw new VersionNotFoundError(document.versionId);
  await db.transaction(async (tx) => {
    await lockEditable(tx, releaseId);
    const { rows } = await tx.query<{ found: boolean; versionFound: boolean }>(
      `SELECT true AS found, ($3::uuid IS NULL OR EXISTS (SELECT 1 FROM versions v WHERE v.version_id = $3 AND v.content_id = c.content_id)) AS "versionFound"
       FROM contents c WHERE c.content_id = $1 AND c.bucket_id = $2`,
      [document.contentId, document.bucketId, document.versionId ?? null],
    );
    if (!rows[0]) throw new ContentNotFoundError(document.contentId);
    if (!rows[0].versionFound) throw new VersionNotFoundError(document.versionId ?? "");
    await tx.query(
      `INSERT INTO release_items (release_id, content_id, bucket_id, version_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT (release_id, content_id) DO UPDATE SET version_id = EXCLUDED.version_id`,
      [releaseId, document.contentId, document.bucketId, document.versionId ?? null],
    );
  });
}

/** Takes a document out of an open or scheduled release. False when it was not in it. */
export async function removeFromRelease(db: Db, actor: Actor, releaseId: string, contentId: string): Promise<boolean> {
  if (!isUuid(contentId)) return false;
  return db.transaction(async (tx) => {
    await lockEditable(tx, releaseId);
    const { rowCount } = await tx.query(`DELETE FROM release_items WHERE release_id = $1 AND content_id = $2`, [releaseId, contentId]);
    return rowCount > 0;
  });
}

/**
 * Schedules an open release (or moves a scheduled one) to go live at `at`, which must be after `now` (the caller's
 * clock; by default this process's). The release poller publishes it then, in the name of who scheduled it.
 */
export function scheduleRelease(db: Db, actor: Actor, releaseId: string, at: Date, options: { now?: Date } = {}): Promise<ReleaseSummary> {
  return db.transaction((tx) => scheduleReleaseInTransaction(tx, actor, releaseId, at, options));
}

/** scheduleRelease in the caller's transaction (with documents added in it: release-references.ts). */
export async function scheduleReleaseInTransaction(
  tx: Queryable,
  actor: Actor,
  releaseId: string,
  at: Date,
  options: { now?: Date } = {},
): Promise<ReleaseSummary> {
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) throw new ReleaseScheduleError("invalid");
  if (at.getTime() <= (options.now ?? new Date()).getTime()) throw new ReleaseScheduleError("past");
  const release = await lockEditable(tx, releaseId);
  await tx.query(`UPDATE releases SET state = 'scheduled', scheduled_at = $2, scheduled_by_id = $3, scheduled_by_name = $4 WHERE id = $1`, [
    releaseId,
    at,
    actor.id,
    actor.name,
  ]);
  await recordActivity(tx, actor, {
    area: "document",
    action: "releaseScheduled",
    subject: release.name,
    details: { releaseId, scheduledAt: at.toISOString() },
  });
  return readReleaseSummary(tx, releaseId);
}

/**
 * Adds documents at their newest version to an open or scheduled release in the caller's transaction; those already
 * in it keep their chosen version.
 */
export async function addNewestToRelease(
  tx: Queryable,
  releaseId: string,
  documents: ReadonlyArray<{ bucketId: string; contentId: string }>,
): Promise<void> {
  await lockEditable(tx, releaseId);
  if (!documents.length) return;
  await tx.query(
    `INSERT INTO release_items (release_id, content_id, bucket_id)
     SELECT $1, t.content_id, t.bucket_id FROM jsonb_to_recordset($2::jsonb) AS t(content_id uuid, bucket_id uuid)
     ON CONFLICT (release_id, content_id) DO NOTHING`,
    [releaseId, JSON.stringify(documents.map((document) => ({ content_id: document.contentId, bucket_id: document.bucketId })))],
  );
}

/** Takes a scheduled release back to open (nothing is published). An open release stays open. */
export async function unscheduleRelease(db: Db, actor: Actor, releaseId: string): Promise<ReleaseSummary> {
  return db.transaction(async (tx) => {
    const release = await lockEditable(tx, releaseId);
    if (release.state === "scheduled") {
      await tx.query(
        `UPDATE releases SET state = 'open', scheduled_at = NULL, scheduled_by_id = NULL, scheduled_by_name = NULL WHERE id = $1`,
        [releaseId],
      );
      await recordActivity(tx, actor, { area: "document", action: "releaseUnscheduled", subject: release.name, details: { releaseId } });
    }
    return readReleaseSummary(tx, releaseId);
  });
}
