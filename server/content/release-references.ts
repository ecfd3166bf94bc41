import type { Db, Queryable } from "@server/db/client";
import { isUuid } from "@core/ids";
import type { User } from "@server/accounts/users";
import { diffVersions } from "@core/content/version-diff";
import { findBucketById, isBucketVisible, type Bucket } from "./buckets";
import { unpublishedReferencesOf, type UnpublishedReference } from "./unpublished-references";
import { ReleaseNotFoundError, type ReleaseSummary } from "./releases";
import { addNewestToRelease, scheduleReleaseInTransaction } from "./release-editing";
import { publishReleaseInTransaction, type ReleaseOutcome } from "./release-rollout";
import { compileBucketSchema } from "./validator";

/*
 * What a release's documents carry (docs/publishing.md, Releases): the documents they reference that would stay
 * unpublished, offered to go along when the release is published or scheduled, and each document's changes against
 * what exhibits show now.
 */

interface ReleaseDocument {
  bucket: Bucket;
  contentId: string;
  /** The version the release would publish (or published) and its data. */
  versionId: string;
  data: Record<string, unknown>;
  /** What exhibits show of it now (null: nothing). */
  publishedVersionId: string | null;
  publishedData: Record<string, unknown> | null;
}

/** The release's documents in buckets the user may open, with their release and published versions' data. */
async function releaseDocuments(db: Queryable, user: User, releaseId: string): Promise<ReleaseDocument[]> {
  if (!isUuid(releaseId)) throw new ReleaseNotFoundError(releaseId);
  const { rows } = await db.query<Omit<ReleaseDocument, "bucket"> & { bucketId: string }>(
    `SELECT i.content_id AS "contentId", i.bucket_id AS "bucketId", v.version_id AS "versionId", v.data,
            c.published_version_id AS "publishedVersionId", p.data AS "publishedData"
     FROM release_items i
     JOIN contents c ON c.content_id = i.content_id
     JOIN versions v ON v.version_id = coalesce(i.published_version_id, i.version_id, c.latest_version_id)
     LEFT JOIN versions p ON p.version_id = c.published_version_id
     WHERE i.release_id = $1
     ORDER BY i.added_at, i.content_id`,
    [releaseId],
  );
  const buckets = new Map<string, Bucket | null>();
  const documents: ReleaseDocument[] = [];
  for (const { bucketId, ...row } of rows) {
    if (!buckets.has(bucketId)) {
      const bucket = await findBucketById(db, bucketId);
      buckets.set(bucketId, bucket && isBucketVisible(bucket, user) ? bucket : null);
    }
    const bucket = buckets.get(bucketId);
    if (bucket) documents.push({ ...row, bucket });
  }
  return documents;
}

/** What the release's documents reference that is not published and not in the release. */
export async function releaseUnpublishedReferences(db: Queryable, user: User, releaseId: string): Promise<UnpublishedReference[]> {
  const documents = await releaseDocuments(db, user, releaseId);
  return unpublishedReferencesOf(
    db,
    user,
    documents,
    documents.map((document) => document.contentId),
  );
}

/**
 * Each document's changes against what exhibits show now: the titles of the fields that differ (top level), by
 * contentId; a document exhibits do not show yet has none listed (all of it is new), nor one whose release version is
 * the published one.
 */
export async function releaseChanges(db: Queryable, user: User, releaseId: string): Promise<Map<string, string[]>> {
  const changes = new Map<string, string[]>();
  for (const document of await releaseDocuments(db, user, releaseId)) {
    if (!document.publishedData || document.publishedVersionId === document.versionId) continue;
    const { schema } = compileBucketSchema(document.bucket);
    const fields = new Set<string>();
    for (const row of diffVersions(schema, document.publishedData, document.data)) {
      const [first] = row.labels;
      fields.add(first?.kind === "field" ? first.title : row.name);
    }
    changes.set(document.contentId, [...fields]);
  }
  return changes;
}

/** The chosen references (contentIds among releaseUnpublishedReferences; others are ignored) join the release. */
async function includeReferences(tx: Queryable, user: User, releaseId: string, include: readonly string[]): Promise<void> {
  const wanted = new Set(include.map((id) => id.toLowerCase()));
  if (!wanted.size) return;
  const chosen = (await releaseUnpublishedReferences(tx, user, releaseId)).filter((reference) => wanted.has(reference.contentId));
  await addNewestToRelease(
    tx,
    releaseId,
    chosen.map((reference) => ({ bucketId: reference.bucket.id, contentId: reference.contentId })),
  );
}

/** Publishes a release now with the references chosen to go along (they join it: a rollback takes them back too). */
export async function publishReleaseWithReferences(
  db: Db,
  user: User,
  releaseId: string,
  include: readonly string[],
): Promise<ReleaseOutcome> {
  if (!isUuid(releaseId)) throw new ReleaseNotFoundError(releaseId);
  return db.transaction(async (tx) => {
    await includeReferences(tx, user, releaseId, include);
    return publishReleaseInTransaction(tx, { id: user.id, name: user.name }, releaseId);
  });
}

/** Schedules a release with the references chosen to go along: one transaction, nothing added when the time is refused. */
export async function scheduleReleaseWithReferences(
  db: Db,
  user: User,
  releaseId: string,
  at: Date,
  include: readonly string[],
): Promise<ReleaseSummary> {
  if (!isUuid(releaseId)) throw new ReleaseNotFoundError(releaseId);
  return db.transaction(async (tx) => {
    await includeReferences(tx, user, releaseId, include);
    return scheduleReleaseInTransaction(tx, { id: user.id, name: user.name }, releaseId, at);
  });
}
