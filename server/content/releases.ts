import type { Db, Queryable } from "@server/db/client";
import { isUuid } from "@core/ids";
import { recordActivity, type Actor } from "@server/admin/activity";
import { enqueueReleaseDeliveriesSql } from "@server/webhooks/outbox";
import { documentTitle } from "@core/content/title";
import { publicationState, type PublicationState } from "@core/content/publication";
import { isReleaseEditable, isReleasePublishable, isReleaseRollbackable, RELEASE_NAME_MAX, type ReleaseState } from "@core/content/release";
import type { BucketNames } from "@core/content/bucket-name";
import type { ScreenName } from "@core/content/screens";
import { ContentNotFoundError } from "./store";
import { applyPublications, inScheduledReleaseSql, VersionNotFoundError } from "./publishing";

/*
 * Releases (docs/publishing.md, Releases): a named set of documents, each at a chosen version (by default its newest
 * when the release is published), published together in one transaction, now or at a scheduled time (the server's
 * release poller, release-scheduler.ts), and rolled back in one. Every change of what is published goes through
 * applyPublications (publishing.ts), as a single document's publish does: the same publications rows (with the
 * release's id), webhooks and activity rows. Who may publish is the caller's check (mayPublish).
 *
 * Each function takes the database, the actor and typed input and throws the typed errors below; the release's row
 * is locked (FOR UPDATE) by every change, so that an edit and a publish of one release take turns.
 */

export type { ReleaseState } from "@core/content/release";

/** The time zone a schedule is entered and shown in: the server's (TZ), where the exhibits are. */
export const exhibitTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

export interface ReleaseSummary {
  id: string;
  name: string;
  state: ReleaseState;
  /** When it is (or was, once published) to go live. */
  scheduledAt: Date | null;
  scheduledBy: string | null;
  publishedAt: Date | null;
  publishedBy: string | null;
  rolledBackAt: Date | null;
  rolledBackBy: string | null;
  createdBy: string;
  createdAt: Date;
  itemCount: number;
}

export interface ReleaseItem {
  bucket: { id: string; slug: string; name: string; names: BucketNames; screen: ScreenName; singleton: boolean; private: boolean };
  contentId: string;
  /** The title of the version the release shows: the one it published, else the chosen one, else the newest. */
  title: string;
  /** The version chosen; null: the newest when the release is published. */
  versionId: string | null;
  /** The version the release publishes now (the chosen one, or the newest), or published (once published). */
  releaseVersionId: string;
  /** Its number in the document's history (1: the first). */
  releaseVersionNumber: number;
  /** Set when the release was published: what it published, and what was published before (null: nothing). */
  publishedVersionId: string | null;
  previousVersionId: string | null;
  /** The document as it stands now: its state, newest and published versions. */
  document: { state: PublicationState; latestVersionId: string; publishedVersionId: string | null };
  addedAt: Date;
}

export interface Release extends ReleaseSummary {
  items: ReleaseItem[];
}

export class ReleaseNotFoundError extends Error {
  constructor(readonly releaseId: string) {
    super(`No release ${releaseId}`);
    this.name = "ReleaseNotFoundError";
  }
}

/** An edit (add, remove, rename, schedule) or a publish of a release that is already published or rolled back. */
export class ReleaseNotEditableError extends Error {
  constructor(
    readonly releaseId: string,
    readonly state: ReleaseState,
  ) {
    super(`Release ${releaseId} is ${state}: it can no longer be changed`);
    this.name = "ReleaseNotEditableError";
  }
}

/** A rollback of a release that is not published (open, scheduled, or rolled back already). */
export class ReleaseNotPublishedError extends Error {
  constructor(
    readonly releaseId: string,
    readonly state: ReleaseState,
  ) {
    super(`Release ${releaseId} is ${state}: only a published release can be rolled back`);
    this.name = "ReleaseNotPublishedError";
  }
}

/** A name that is empty or longer than RELEASE_NAME_MAX. */
export class ReleaseNameError extends Error {
  constructor(readonly reason: "empty" | "tooLong") {
    super(reason === "empty" ? "A release needs a name" : `A release's name has at most ${RELEASE_NAME_MAX} characters`);
    this.name = "ReleaseNameError";
  }
}

/** A scheduled time that is not a valid date, or not in the future. */
export class ReleaseScheduleError extends Error {
  constructor(readonly reason: "invalid" | "past") {
    super(reason === "invalid" ? "Not a valid time" : "The scheduled time has passed");
    this.name = "ReleaseScheduleError";
  }
}

const SUMMARY_COLUMNS = `r.id, r.name, r.state, r.scheduled_at AS "scheduledAt", r.scheduled_by_name AS "scheduledBy",
  r.published_at AS "publishedAt", r.published_by_name AS "publishedBy", r.rolled_back_at AS "rolledBackAt",
  r.rolled_back_by_name AS "rolledBackBy", r.created_by_name AS "createdBy", r.created_at AS "createdAt",
  (SELECT count(*)::int FROM release_items i WHERE i.release_id = r.id) AS "itemCount"`;

function validName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new ReleaseNameError("empty");
  if (trimmed.length > RELEASE_NAME_MAX) throw new ReleaseNameError("tooLong");
  return trimmed;
}

async function summary(db: Queryable, releaseId: string): Promise<ReleaseSummary> {
  const { rows } = await db.query<ReleaseSummary>(`SELECT ${SUMMARY_COLUMNS} FROM releases r WHERE r.id = $1`, [releaseId]);
  if (!rows[0]) throw new ReleaseNotFoundError(releaseId);
  return rows[0];
}

/** The release's row, locked until the transaction ends. */
async function lockRelease(tx: Queryable, releaseId: string): Promise<{ id: string; name: string; state: ReleaseState }> {
  const { rows } = await tx.query<{ id: string; name: string; state: ReleaseState }>(
    `SELECT id, name, state FROM releases WHERE id = $1 FOR UPDATE`,
    [releaseId],
  );
  if (!rows[0]) throw new ReleaseNotFoundError(releaseId);
  return rows[0];
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
  return summary(db, created.id);
}

/** The releases, newest first; `states` keeps those in these states. */
export async function listReleases(db: Queryable, options: { states?: readonly ReleaseState[]; limit?: number; offset?: number } = {}) {
  const { rows } = await db.query<ReleaseSummary>(
    `SELECT ${SUMMARY_COLUMNS} FROM releases r
     WHERE $1::text[] IS NULL OR r.state = ANY ($1::text[])
     ORDER BY r.created_at DESC, r.id LIMIT $2 OFFSET $3`,
    [options.states ? [...options.states] : null, options.limit ?? 100, options.offset ?? 0],
  );
  return rows;
}

/** A release with its documents, in the order they were added. Throws ReleaseNotFoundError. */
export async function getRelease(db: Queryable, releaseId: string): Promise<Release> {
  if (!isUuid(releaseId)) throw new ReleaseNotFoundError(releaseId);
  const release = await summary(db, releaseId);
  const { rows } = await db.query<
    Omit<ReleaseItem, "title" | "document" | "bucket"> & {
      bucketId: string;
      slug: string;
      bucketName: string;
      names: BucketNames;
      screen: ScreenName;
      singleton: boolean;
      private: boolean;
      jsonSchema: Record<string, unknown>;
      locales: string[];
      latestVersionId: string;
      documentPublishedVersionId: string | null;
      unpublishedAt: Date | null;
      scheduled: boolean;
      data: Record<string, unknown> | null;
    }
  >(
    `SELECT i.content_id AS "contentId", i.version_id AS "versionId",
            coalesce(i.published_version_id, i.version_id, c.latest_version_id) AS "releaseVersionId",
            i.published_version_id AS "publishedVersionId", i.previous_version_id AS "previousVersionId", i.added_at AS "addedAt",
            b.id AS "bucketId", b.slug, b.name AS "bucketName", b.names, b.screen, b.singleton, b.private, b.json_schema AS "jsonSchema", b.locales,
            c.latest_version_id AS "latestVersionId", c.published_version_id AS "documentPublishedVersionId",
            c.unpublished_at AS "unpublishedAt", ${inScheduledReleaseSql("c")} AS scheduled, v.data,
            (SELECT count(*)::int FROM versions o WHERE o.content_id = v.content_id
               AND (o.created_at < v.created_at OR (o.created_at = v.created_at AND o.seq <= v.seq))) AS "releaseVersionNumber"
     FROM release_items i
     JOIN contents c ON c.content_id = i.content_id
     JOIN buckets b ON b.id = i.bucket_id
     LEFT JOIN versions v ON v.version_id = coalesce(i.published_version_id, i.version_id, c.latest_version_id)
     WHERE i.release_id = $1
     ORDER BY i.added_at, i.content_id`,
    [releaseId],
  );
  return {
    ...release,
    items: rows.map((row) => ({
      bucket: {
        id: row.bucketId,
        slug: row.slug,
        name: row.bucketName,
        names: row.names,
        screen: row.screen,
        singleton: row.singleton,
        private: row.private,
      },
      contentId: row.contentId,
      title: row.data ? documentTitle(row.data, row.jsonSchema, row.locales) : "",
      versionId: row.versionId,
      releaseVersionId: row.releaseVersionId,
      releaseVersionNumber: row.releaseVersionNumber,
      publishedVersionId: row.publishedVersionId,
      previousVersionId: row.previousVersionId,
      document: {
        state: publicationState({
          latestVersionId: row.latestVersionId,
          publishedVersionId: row.documentPublishedVersionId,
          unpublishedAt: row.unpublishedAt,
          scheduled: row.scheduled,
        }),
        latestVersionId: row.latestVersionId,
        publishedVersionId: row.documentPublishedVersionId,
      },
      addedAt: row.addedAt,
    })),
  };
}

/** The releases a document is in, newest first (its edit page's "in release …"). */
export async function releasesOfDocument(db: Queryable, contentId: string): Promise<Array<ReleaseSummary & { versionId: string | null }>> {
  const { rows } = await db.query<ReleaseSummary & { versionId: string | null }>(
    `SELECT ${SUMMARY_COLUMNS}, i.version_id AS "versionId"
     FROM release_items i JOIN releases r ON r.id = i.release_id
     WHERE i.content_id = $1 ORDER BY r.created_at DESC, r.id`,
    [contentId],
  );
  return rows;
}

export async function renameRelease(db: Db, actor: Actor, releaseId: string, name: string): Promise<ReleaseSummary> {
  const valid = validName(name);
  return db.transaction(async (tx) => {
    await lockEditable(tx, releaseId);
    await tx.query(`UPDATE releases SET name = $2 WHERE id = $1`, [releaseId, valid]);
    return summary(tx, releaseId);
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
  return summary(tx, releaseId);
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
    return summary(tx, releaseId);
  });
}

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
  await tx.query(
    `UPDATE releases SET state = 'published', published_at = clock_timestamp(), published_by_id = $2, published_by_name = $3 WHERE id = $1`,
    [releaseId, actor.id, actor.name],
  );
  await tx.query(`WITH hooks AS (${enqueueReleaseDeliveriesSql("release.published", { release: "$1::uuid" })}) SELECT 1`, [releaseId]);
  const changed = applied.filter((item) => item.changed).length;
  await recordActivity(tx, actor, {
    area: "document",
    action: "releasePublished",
    subject: release.name,
    details: { releaseId, documents: items.length, changed },
  });
  return { release: await summary(tx, releaseId), changed };
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
    await tx.query(
      `UPDATE releases SET state = 'rolled_back', rolled_back_at = clock_timestamp(), rolled_back_by_id = $2, rolled_back_by_name = $3
       WHERE id = $1`,
      [releaseId, actor.id, actor.name],
    );
    await tx.query(`WITH hooks AS (${enqueueReleaseDeliveriesSql("release.rolled_back", { release: "$1::uuid" })}) SELECT 1`, [releaseId]);
    const changed = applied.filter((item) => item.changed).length;
    await recordActivity(tx, actor, {
      area: "document",
      action: "releaseRolledBack",
      subject: release.name,
      details: { releaseId, documents: items.length, changed },
    });
    return { release: await summary(tx, releaseId), changed };
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
