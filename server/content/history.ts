import type { Services } from "@server/services";
import { findBucketByCollection, isBucketVisible, type Bucket } from "./buckets";
import { saveDocument } from "./save";
import { ContentNotFoundError, getVersion, VersionConflictError, type ContentVersion } from "./store";
import type { SaveRefusal } from "./save-rules";
import { compileBucketSchema } from "./validator";
import { hasPermission, type User } from "@server/accounts/users";
import type { Queryable } from "@server/db/client";
import { pageClause } from "@server/db/page-clause";
import { loadMediaContents } from "@server/media/form-upload";
import { documentTitle } from "@core/content/title";
import {
  HISTORY_PAGE_SIZE,
  type DiffMedia,
  type DiffReference,
  type HistoryEntry,
  type HistoryPage,
  type VersionComparison,
} from "@core/content/history";
import { diffTargets, diffVersions } from "@core/content/version-diff";
import { isUuid } from "@core/ids";
import type { Locale } from "@core/locales";

/*
 * A document's version history (the edit page's panel, /b/{bucket}/{contentId}/history and …/compare): its
 * versions newest first a page at a time (versions_content_idx: content_id, created_at DESC, seq DESC), two versions'
 * field-by-field difference, and restoring a version as a new one on top of the latest through the save
 * front door (server/content/save.ts).
 */

const entryColumns = `v.version_id AS "versionId", v.created_at AS "createdAt", u.name AS "authorName", sv.number AS "schemaVersion",
  (v.version_id = c.latest_version_id) AS latest, (v.merged_version_id IS NOT NULL) AS merged`;
const entryJoins = `FROM versions v JOIN contents c ON c.content_id = v.content_id
  LEFT JOIN users u ON u.id = v.created_by LEFT JOIN schema_versions sv ON sv.id = v.schema_version_id`;

/** One page of a document's versions, newest first; null when the bucket holds no such document. */
export async function listHistory(db: Queryable, bucketId: string, contentId: string, page = 1): Promise<HistoryPage | null> {
  if (!isUuid(contentId)) return null;
  const { rows: counted } = await db.query<{ total: number; latestVersionId: string; publishedVersionId: string | null }>(
    `SELECT count(*)::int AS total, c.latest_version_id AS "latestVersionId", c.published_version_id AS "publishedVersionId"
     FROM contents c JOIN versions v ON v.content_id = c.content_id
     WHERE c.content_id = $1 AND c.bucket_id = $2 GROUP BY c.latest_version_id, c.published_version_id`,
    [contentId, bucketId],
  );
  const head = counted[0];
  if (!head) return null;
  const pages = Math.max(1, Math.ceil(head.total / HISTORY_PAGE_SIZE));
  const current = Math.min(Math.max(1, Math.trunc(page) || 1), pages);
  const offset = (current - 1) * HISTORY_PAGE_SIZE;
  const { rows } = await db.query<Omit<HistoryEntry, "number">>(
    `SELECT ${entryColumns} ${entryJoins}
     WHERE v.content_id = $1 AND c.bucket_id = $2
     ORDER BY v.created_at DESC, v.seq DESC ${pageClause(HISTORY_PAGE_SIZE, offset)}`,
    [contentId, bucketId],
  );
  const entries = rows.map((row, index) => ({ ...row, number: head.total - offset - index }));
  const { latestVersionId, publishedVersionId } = head;
  return { contentId, latestVersionId, publishedVersionId, entries, total: head.total, page: current, pages };
}

/** Admins may open the bucket's schema history; others see the schema version's number only. */
export const schemaLinkFor = (user: User, bucket: Pick<Bucket, "slug">) =>
  hasPermission(user, "admin") ? `/settings/buckets/${bucket.slug}#schema-history-title` : null;

/** The edit page's history panel: the first page of the document's versions. */
export async function historyPanel(db: Queryable, target: { user: User; bucket: Bucket }, contentId: string) {
  const page = await listHistory(db, target.bucket.id, contentId);
  return page ? { page, schemaLink: schemaLinkFor(target.user, target.bucket) } : null;
}

/** The history entries of some versions of one document (with their numbers), in no particular order. */
export async function historyEntries(
  db: Queryable,
  bucketId: string,
  contentId: string,
  versionIds: readonly string[],
): Promise<HistoryEntry[]> {
  const { rows } = await db.query<HistoryEntry & { createdAt: Date }>(
    `SELECT ${entryColumns},
       (SELECT count(*)::int FROM versions o WHERE o.content_id = v.content_id
          AND (o.created_at < v.created_at OR (o.created_at = v.created_at AND o.seq <= v.seq))) AS number
     ${entryJoins}
     WHERE v.content_id = $1 AND c.bucket_id = $2 AND v.version_id = ANY($3::uuid[])`,
    [contentId, bucketId, versionIds],
  );
  return rows;
}

/** The titles and pages of referenced documents, by collection: only buckets the user may see. */
export async function referenceTitles(
  context: Services,
  user: User,
  targets: Map<string, Set<string>>,
): Promise<Record<string, DiffReference>> {
  const out: Record<string, DiffReference> = {};
  for (const [collection, ids] of targets) {
    const valid = [...ids].filter((id) => isUuid(id));
    for (const id of ids) out[id] = null;
    const bucket = await findBucketByCollection(context.db, collection);
    if (!bucket || !isBucketVisible(bucket, user) || !valid.length) continue;
    const { rows } = await context.db.query<{ contentId: string; data: Record<string, unknown> }>(
      `SELECT c.content_id AS "contentId", v.data FROM contents c JOIN versions v ON v.version_id = c.latest_version_id
       WHERE c.bucket_id = $1 AND c.content_id = ANY($2::uuid[])`,
      [bucket.id, valid],
    );
    for (const row of rows) {
      out[row.contentId] = {
        title: documentTitle(row.data, bucket.jsonSchema, bucket.locales) || row.contentId,
        href: bucket.singleton ? `/b/${bucket.slug}/edit` : `/b/${bucket.slug}/${row.contentId}/latest`,
      };
    }
  }
  return out;
}

/** Two versions of one document compared, the older first; null when either is not a version of it. */
export async function compareVersions(
  context: Services,
  target: { user: User; bucket: Bucket },
  contentId: string,
  versionIds: readonly [string, string],
): Promise<VersionComparison | null> {
  const { user, bucket } = target;
  if (!isUuid(contentId) || !versionIds.every((id) => isUuid(id))) return null;
  const [a, b] = await Promise.all(versionIds.map((id) => getVersion(context.db, bucket.id, contentId, id)));
  if (!a || !b) return null;
  const entries = await historyEntries(context.db, bucket.id, contentId, [a.versionId, b.versionId]);
  const entryOf = (version: ContentVersion) => entries.find((entry) => entry.versionId === version.versionId);
  const [first, second] = [entryOf(a), entryOf(b)];
  if (!first || !second) return null;
  const [before, after] = first.number <= second.number ? [a, b] : [b, a];
  const { schema } = compileBucketSchema(bucket);
  const rows = diffVersions(schema, before.data, after.data);
  const targets = diffTargets(rows);
  const contents = {
    ...(await loadMediaContents(context, user, schema, before.data)),
    ...(await loadMediaContents(context, user, schema, after.data)),
  };
  const media: Record<string, DiffMedia> = {};
  for (const id of targets.media) {
    const content = contents[id];
    if (!content) continue;
    const thumbnail =
      content.kind === "image"
        ? `${content.url}?v=${encodeURIComponent(content._id)}`
        : content.kind === "video"
          ? (content.still ?? content.thumbs[0]?.url ?? null)
          : null;
    media[id] = { thumbnail, filename: content.originalFilename };
  }
  return {
    before: before === a ? first : second,
    after: after === a ? first : second,
    rows,
    media,
    references: await referenceTitles(context, user, targets.references),
  };
}

export type RestoreOutcome =
  | { kind: "restored"; version: ContentVersion }
  /** The version does not pass today's checks (the refusal says why): its page shows them, and saving it from there restores it. */
  | { kind: "invalid"; refusal: SaveRefusal }
  | { kind: "conflict"; latestVersionId: string | null };

/**
 * Saves an older version's data as a new version on top of `baseVersionId` (the latest the editor saw), through
 * the front door (server/content/save.ts): today's schema, media references and rules apply; a save by someone
 * else since is a conflict. Throws ContentNotFoundError for an unknown version.
 */
export async function restoreVersion(
  context: Services,
  target: { user: User; bucket: Bucket; locale: Locale },
  input: { contentId: string; versionId: string; baseVersionId: string },
): Promise<RestoreOutcome> {
  const { user: actor, bucket, locale } = target;
  const { contentId, versionId, baseVersionId } = input;
  if (!isUuid(contentId) || !isUuid(versionId)) throw new ContentNotFoundError(contentId);
  const old = await getVersion(context.db, bucket.id, contentId, versionId);
  if (!old) throw new ContentNotFoundError(contentId);
  let outcome;
  try {
    outcome = await saveDocument(context, {
      actor,
      bucket,
      locale,
      contentId,
      baseVersionId: baseVersionId || undefined,
      document: { payload: old.data },
    });
  } catch (error) {
    if (error instanceof VersionConflictError) return { kind: "conflict", latestVersionId: error.latestVersionId };
    throw error;
  }
  if (!outcome.ok) return outcome.status === 409 ? { kind: "conflict", latestVersionId: null } : { kind: "invalid", refusal: outcome };
  return { kind: "restored", version: outcome.version };
}
