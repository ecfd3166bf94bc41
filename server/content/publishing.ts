import type { Db, Queryable } from "@server/db/client";
import { recordActivities, type Actor } from "@server/admin/activity";
import { enqueueDeliveriesSql } from "@server/webhooks/outbox";
import { documentTitle, titleProperty } from "@core/content/title";
import type { User } from "@server/accounts/users";
import { ContentNotFoundError, VersionNotFoundError } from "./store";
import { closeReviewsOnPublish } from "./reviews";
import type { Bucket } from "./buckets";
import { publicationOf, type Publication } from "./publication-state";
import { unpublishedReferences } from "./unpublished-references";

/*
 * Publishing (docs/publishing.md): what exhibits get is a document's published version, set here and nowhere else.
 * A save moves only the newest version (store.ts). Each change of the published version is one transaction: the
 * contents row, a publications row (what a rollback returns to), the webhooks' deliveries and the activity log.
 * Reading a document's publication is publication-state.ts; what a publish would leave unpublished,
 * unpublished-references.ts.
 */

export { VersionNotFoundError } from "./store";

type PublishingBucket = Pick<Bucket, "id" | "slug" | "jsonSchema" | "locales">;

/** The publication of a document just changed in this transaction (locked, so it is there). */
async function publicationAfter(tx: Queryable, bucketId: string, contentId: string): Promise<Publication> {
  const publication = await publicationOf(tx, bucketId, contentId);
  if (!publication) throw new ContentNotFoundError(contentId);
  return publication;
}

interface Target {
  bucket: PublishingBucket;
  contentId: string;
  /** The version to publish; null or absent: the newest. */
  versionId?: string | null;
}

/** Publishes a document's newest version, or an older one: exhibits get it from this commit on. */
export async function publishDocument(db: Db, actor: Actor, target: Target): Promise<Publication> {
  return db.transaction(async (tx) => {
    await publishInTransaction(tx, actor, target);
    return publicationAfter(tx, target.bucket.id, target.contentId);
  });
}

/** Takes a document off: exhibits no longer get it (its versions stay; it can be published again). */
export async function unpublishDocument(db: Db, actor: Actor, target: Omit<Target, "versionId">): Promise<Publication> {
  return db.transaction(async (tx) => {
    await unpublishInTransaction(tx, actor, target);
    return publicationAfter(tx, target.bucket.id, target.contentId);
  });
}

/** One publish inside a caller's transaction. Publishing what is published is a no-op. */
export async function publishInTransaction(tx: Queryable, actor: Actor, target: Target): Promise<void> {
  await applyPublications(tx, actor, [{ bucket: target.bucket, contentId: target.contentId, versionId: target.versionId ?? null }]);
}

export async function unpublishInTransaction(tx: Queryable, actor: Actor, { bucket, contentId }: Omit<Target, "versionId">): Promise<void> {
  await applyPublications(tx, actor, [{ bucket, contentId, unpublish: true }]);
}

/** One document's change of what is published: a version (null or absent: the newest), or taken off. */
export interface PublicationChange {
  bucket: PublishingBucket;
  contentId: string;
  versionId?: string | null;
  /** Take the document off instead of publishing a version. */
  unpublish?: boolean;
}

/** What a change did: the version published before it and after it (null: none); `changed` false: a no-op. */
export interface AppliedPublication {
  contentId: string;
  bucketId: string;
  previousVersionId: string | null;
  versionId: string | null;
  changed: boolean;
}

/**
 * Every change of what exhibits get goes through here, inside the caller's transaction: one document's publish or
 * unpublish, or a release's many at once. A handful of statements whatever the number of documents: the documents'
 * rows locked (in content_id order, so that two callers take turns without a deadlock), their versions read, then for
 * the documents whose published version changes the contents rows, one publications row each (with `releaseId`),
 * the webhooks' document.published / document.unpublished deliveries and one activity row each. A change to what is
 * already published records nothing. Throws ContentNotFoundError for a document not in its bucket and
 * VersionNotFoundError for a version not of its document: the caller's transaction rolls back with nothing done.
 */
export async function applyPublications(
  tx: Queryable,
  actor: Actor,
  changes: readonly PublicationChange[],
  options: { releaseId?: string | null } = {},
): Promise<AppliedPublication[]> {
  if (changes.length === 0) return [];
  const ids = changes.map((change) => change.contentId);
  if (new Set(ids).size !== ids.length) throw new Error("applyPublications: a document is changed twice");
  const { rows: locked } = await tx.query<{
    contentId: string;
    bucketId: string;
    latestVersionId: string;
    publishedVersionId: string | null;
  }>(
    `SELECT content_id AS "contentId", bucket_id AS "bucketId", latest_version_id AS "latestVersionId",
            published_version_id AS "publishedVersionId"
     FROM contents WHERE content_id = ANY ($1::uuid[]) ORDER BY content_id FOR UPDATE`,
    [ids],
  );
  const current = new Map(locked.map((row) => [row.contentId, row]));
  const planned = changes.map((change) => {
    const row = current.get(change.contentId);
    if (!row || row.bucketId !== change.bucket.id) throw new ContentNotFoundError(change.contentId);
    const target = change.unpublish ? null : (change.versionId ?? row.latestVersionId);
    return { change, previous: row.publishedVersionId, target };
  });
  // The versions published (checked to be the document's), and those taken off: the activity log's titles.
  const wanted = [...new Set(planned.flatMap(({ previous, target }) => (target ? [target] : previous ? [previous] : [])))];
  const { rows: versionRows } = await tx.query<{ versionId: string; contentId: string; data: Record<string, unknown> }>(
    `SELECT version_id AS "versionId", content_id AS "contentId", data FROM versions WHERE version_id = ANY ($1::uuid[])`,
    [wanted],
  );
  const versions = new Map(versionRows.map((row) => [row.versionId, row]));
  for (const { change, target } of planned)
    if (target && versions.get(target)?.contentId !== change.contentId) throw new VersionNotFoundError(target);
  const moved = planned.filter(({ previous, target }) => previous !== target);
  if (moved.length) {
    const rows = moved.map(({ change, previous, target }) => ({
      content_id: change.contentId,
      bucket_id: change.bucket.id,
      version_id: target,
      previous_version_id: previous,
    }));
    const json = JSON.stringify(rows);
    const recordset = `jsonb_to_recordset($1::jsonb) AS t(content_id uuid, bucket_id uuid, version_id uuid, previous_version_id uuid)`;
    await tx.query(
      `UPDATE contents c SET published_version_id = t.version_id, published_at = clock_timestamp(),
         unpublished_at = CASE WHEN t.version_id IS NULL THEN clock_timestamp() END,
         published_search_text = CASE WHEN t.version_id = c.latest_version_id THEN c.search_text
           ELSE (SELECT document_search_text(v.data) FROM versions v WHERE v.version_id = t.version_id) END
       FROM ${recordset} WHERE c.content_id = t.content_id`,
      [json],
    );
    await tx.query(
      `INSERT INTO publications (content_id, bucket_id, version_id, previous_version_id, actor_id, actor_name, release_id)
       SELECT t.content_id, t.bucket_id, t.version_id, t.previous_version_id, $2, $3, $4
       FROM jsonb_to_recordset($1::jsonb) AS t(n int, content_id uuid, bucket_id uuid, version_id uuid, previous_version_id uuid)
       ORDER BY t.n`,
      [JSON.stringify(rows.map((row, n) => ({ n, ...row }))), actor.id, actor.name, options.releaseId ?? null],
    );
    if (moved.some(({ target }) => target !== null))
      await tx.query(
        `WITH hooks AS (${enqueueDeliveriesSql("document.published", {
          bucket: "t.bucket_id",
          contentId: "t.content_id",
          versionId: "t.version_id",
          from: `(SELECT * FROM ${recordset} WHERE t.version_id IS NOT NULL) t`,
        })}) SELECT 1`,
        [json],
      );
    if (moved.some(({ target }) => target === null))
      await tx.query(
        `WITH hooks AS (${enqueueDeliveriesSql("document.unpublished", {
          bucket: "t.bucket_id",
          contentId: "t.content_id",
          versionId: "t.previous_version_id",
          from: `(SELECT * FROM ${recordset} WHERE t.version_id IS NULL) t`,
        })}) SELECT 1`,
        [json],
      );
    await closeReviewsOnPublish(
      tx,
      actor,
      moved.flatMap(({ change, target }) => (target ? [change.contentId] : [])),
    );
    await recordActivities(
      tx,
      actor,
      moved.map(({ change, previous, target }) => {
        // A move is a publish (target) or an unpublish of what was published (previous): one of them is set.
        const shown = target ?? previous ?? "";
        return activityEntry(target ? "published" : "unpublished", change.bucket, change.contentId, {
          versionId: shown,
          data: versions.get(shown)?.data ?? {},
        });
      }),
    );
  }
  return planned.map(({ change, previous, target }) => ({
    contentId: change.contentId,
    bucketId: change.bucket.id,
    previousVersionId: previous,
    versionId: target,
    changed: previous !== target,
  }));
}

function activityEntry(
  action: "published" | "unpublished",
  bucket: PublishingBucket,
  contentId: string,
  version: { versionId: string; data: Record<string, unknown> },
) {
  const key = titleProperty(bucket.jsonSchema);
  return {
    area: "document" as const,
    action,
    subject: documentTitle(version.data, bucket.jsonSchema, bucket.locales),
    details: {
      bucket: bucket.slug,
      bucketId: bucket.id,
      contentId,
      versionId: version.versionId,
      title: key ? (version.data[key] ?? null) : null,
    },
  };
}

/**
 * Publishes every document's newest version that is not published yet, in one statement: the demo content of a first
 * start (server/seed.ts) goes live as a whole. No webhook or activity row: nothing was live before.
 */
export async function publishEveryNewest(db: Queryable, actor: Actor): Promise<void> {
  await db.query(
    `WITH moved AS (
       UPDATE contents SET published_version_id = latest_version_id, published_at = clock_timestamp(), unpublished_at = NULL,
         published_search_text = search_text
       WHERE published_version_id IS DISTINCT FROM latest_version_id
       RETURNING content_id, bucket_id, latest_version_id
     )
     INSERT INTO publications (content_id, bucket_id, version_id, actor_id, actor_name)
     SELECT content_id, bucket_id, latest_version_id, $1, $2 FROM moved`,
    [actor.id, actor.name],
  );
}

/**
 * Publishes a document and, in the same transaction, the unpublished documents it references that the editor chose
 * to include (`include`: contentIds among unpublishedReferences; any other is ignored): exhibits get them together.
 */
export async function publishWithReferences(
  db: Db,
  user: User,
  target: Target & { data: Record<string, unknown> },
  include: readonly string[],
): Promise<Publication> {
  const wanted = new Set(include.map((id) => id.toLowerCase()));
  const actor = { id: user.id, name: user.name };
  return db.transaction(async (tx) => {
    const references = wanted.size ? await unpublishedReferences(tx, user, target.bucket, target.data) : [];
    for (const reference of references) {
      if (wanted.has(reference.contentId))
        await publishInTransaction(tx, actor, { bucket: reference.bucket, contentId: reference.contentId });
    }
    await publishInTransaction(tx, actor, target);
    return publicationAfter(tx, target.bucket.id, target.contentId);
  });
}
