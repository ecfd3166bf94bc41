import type { Queryable } from "@server/db/client";
import { isUuid } from "@core/ids";
import { documentTitle } from "@core/content/title";
import { publicationState, type PublicationState } from "@core/content/publication";
import { RELEASE_NAME_MAX, type ReleaseState } from "@core/content/release";
import type { BucketNames } from "@core/content/bucket-name";
import type { ScreenName } from "@core/content/screens";
import { inScheduledReleaseSql } from "./publication-state";

/*
 * Releases (docs/publishing.md, Releases): a named set of documents, each at a chosen version (by default its newest
 * when the release is published), published together in one transaction, now or at a scheduled time (the server's
 * release poller, release-scheduler.ts), and rolled back in one. This file holds what a release is (its summary, its
 * items), the typed errors every release function throws, and reading releases; changing one is release-editing.ts,
 * publishing and rolling one back release-rollout.ts. The release's row is locked (lockRelease, FOR UPDATE) by every
 * change, so that an edit and a publish of one release take turns.
 */

export type { ReleaseState } from "@core/content/release";

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

/** A release's summary (its row and how many documents it holds). Throws ReleaseNotFoundError. */
export async function readReleaseSummary(db: Queryable, releaseId: string): Promise<ReleaseSummary> {
  const { rows } = await db.query<ReleaseSummary>(`SELECT ${SUMMARY_COLUMNS} FROM releases r WHERE r.id = $1`, [releaseId]);
  if (!rows[0]) throw new ReleaseNotFoundError(releaseId);
  return rows[0];
}

/** The release's row, locked until the transaction ends. */
export async function lockRelease(tx: Queryable, releaseId: string): Promise<{ id: string; name: string; state: ReleaseState }> {
  const { rows } = await tx.query<{ id: string; name: string; state: ReleaseState }>(
    `SELECT id, name, state FROM releases WHERE id = $1 FOR UPDATE`,
    [releaseId],
  );
  if (!rows[0]) throw new ReleaseNotFoundError(releaseId);
  return rows[0];
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
  const release = await readReleaseSummary(db, releaseId);
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
