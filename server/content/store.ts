import { randomUUID } from "node:crypto";
import { prepared, type Db, type Queryable } from "@server/db/client";
import { enqueueDeliveriesSql } from "@server/webhooks/outbox";
import { changeDocumentCountSql } from "./document-counts";
import type { Bucket } from "./buckets";
import { recordActivity, type Actor } from "@server/admin/activity";
import { documentTitle, titleProperty } from "@core/content/title";

export interface ContentVersion {
  contentId: string;
  versionId: string;
  baseVersionId: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
}

/** Someone saved the document after the version this save started from (409). */
export class VersionConflictError extends Error {
  readonly code = "DOCUMENT_VERSION_CONFLICT";
  constructor(
    readonly contentId: string,
    readonly latestVersionId: string,
  ) {
    super("DOCUMENT_VERSION_CONFLICT");
    this.name = "VersionConflictError";
  }
}

export class ContentNotFoundError extends Error {
  constructor(readonly contentId: string) {
    super(`No document ${contentId} in this bucket`);
    this.name = "ContentNotFoundError";
  }
}

/** The version asked for is not one of this document's. */
export class VersionNotFoundError extends Error {
  constructor(readonly versionId: string) {
    super(`No version ${versionId} of this document`);
    this.name = "VersionNotFoundError";
  }
}

/** How a merged version came about: the version the editor had loaded, and the field paths taken from the newest. */
export interface VersionMerge {
  loadedVersionId: string;
  fromNewest: ReadonlyArray<readonly string[]>;
}

export const versionColumns = (alias = "") =>
  `${alias}content_id AS "contentId", ${alias}version_id AS "versionId", ${alias}base_version_id AS "baseVersionId",
   ${alias}data AS data, ${alias}created_at AS "createdAt"`;

const CREATE_CONTENT_SQL = prepared(
  `WITH new_content AS (
     INSERT INTO contents (content_id, bucket_id, latest_version_id, singleton, search_text)
     VALUES ($1, $2, $3, $4, document_search_text($5::jsonb))
   ), counted AS (
     ${changeDocumentCountSql("$2::uuid", 1)}
   ), hooks AS (
     ${enqueueDeliveriesSql("document.saved", { bucket: "$2::uuid", contentId: "$1::uuid", versionId: "$3::uuid" })}
   )
   INSERT INTO versions (version_id, content_id, data, created_by, schema_version_id)
   VALUES ($3, $1, $5, $6, coalesce($7::uuid, (SELECT schema_version_id FROM buckets WHERE id = $2)))
   RETURNING created_at AS "createdAt"`,
);

/**
 * Creates a document with its first version. A singleton bucket may hold only one.
 * One statement rather than a transaction of three: its data-modifying CTEs
 * commit together (the versions → contents foreign key is deferred to the
 * end), and each round trip saved matters on PGlite, where every query is a
 * pass through WASM, and on PostgreSQL, where the row of the connection's count
 * slot stays locked until the commit. The webhooks' deliveries are one more CTE.
 */
export async function createContent(
  db: Queryable,
  bucketId: string,
  data: Record<string, unknown>,
  userId: string | null,
  options: {
    singleton?: boolean;
    schemaVersionId?: string | null;
    /** Chosen beforehand (the demo's trends name each other). */ contentId?: string;
  } = {},
): Promise<ContentVersion> {
  const contentId = options.contentId ?? randomUUID();
  const versionId = randomUUID();
  const { rows } = await db.query<{ createdAt: Date }>(CREATE_CONTENT_SQL, [
    contentId,
    bucketId,
    versionId,
    options.singleton ?? false,
    data,
    userId,
    options.schemaVersionId ?? null,
  ]);
  // The data just written, not read back: parsing it again would only cost time.
  const [row] = rows;
  if (!row) throw new Error("The document was not recorded");
  return { contentId, versionId, baseVersionId: null, data, createdAt: row.createdAt };
}

const SAVE_VERSION_SQL = prepared(
  `WITH moved AS (
     UPDATE contents SET latest_version_id = $1, updated_at = now(), search_text = document_search_text($5::jsonb)
     WHERE content_id = $2 AND bucket_id = $3 AND latest_version_id = $4
     RETURNING content_id
   ), hooks AS (
     ${enqueueDeliveriesSql("document.saved", { bucket: "$3::uuid", contentId: "moved.content_id", versionId: "$1::uuid", from: "moved" })}
   )
   INSERT INTO versions (version_id, content_id, base_version_id, data, created_by, schema_version_id, merged_version_id, merged_fields)
   SELECT $1, content_id, $4, $5, $6, coalesce($7::uuid, (SELECT schema_version_id FROM buckets WHERE id = $3)), $8::uuid, $9::jsonb FROM moved
   RETURNING created_at AS "createdAt"`,
);

/**
 * Saves a new version on top of `baseVersionId`: a compare-and-set in one
 * statement, so of two saves from the same base exactly one wins and the
 * other gets VersionConflictError. Nothing is ever overwritten. The webhooks'
 * deliveries are recorded by the same statement, only when the version is.
 */
export async function saveVersion(
  db: Queryable,
  input: {
    bucketId: string;
    contentId: string;
    baseVersionId: string;
    data: Record<string, unknown>;
    userId: string | null;
    /** The schema version the data was validated against; default: the bucket's current one. */
    schemaVersionId?: string | null;
    /** A merged save: the version the editor had loaded, and the fields taken from the newest (core/content/merge.ts). */
    merge?: VersionMerge;
  },
): Promise<ContentVersion> {
  const versionId = randomUUID();
  const { rows } = await db.query<{ createdAt: Date }>(SAVE_VERSION_SQL, [
    versionId,
    input.contentId,
    input.bucketId,
    input.baseVersionId,
    input.data,
    input.userId,
    input.schemaVersionId ?? null,
    input.merge?.loadedVersionId ?? null,
    input.merge ? JSON.stringify(input.merge.fromNewest) : null,
  ]);
  if (rows[0]) {
    const { contentId, baseVersionId, data } = input;
    return { contentId, versionId, baseVersionId, data, createdAt: rows[0].createdAt };
  }
  const latest = await findLatestVersionId(db, input.bucketId, input.contentId);
  if (!latest) throw new ContentNotFoundError(input.contentId);
  throw new VersionConflictError(input.contentId, latest);
}

async function findLatestVersionId(db: Queryable, bucketId: string, contentId: string): Promise<string | null> {
  const { rows } = await db.query<{ latest: string }>(
    `SELECT latest_version_id AS latest FROM contents WHERE content_id = $1 AND bucket_id = $2`,
    [contentId, bucketId],
  );
  return rows[0]?.latest ?? null;
}

const LATEST_VERSION_SQL = prepared(`SELECT ${versionColumns("v.")}
   FROM contents c JOIN versions v ON v.version_id = c.latest_version_id
   WHERE c.content_id = $1 AND c.bucket_id = $2`);

/**
 * A document's version (`versionParam`; null: the latest) in the bucket of a slug (current or old), as one JSON
 * value for a subquery: the session lookup reads it in its statement (a JSON API read: one round trip).
 */
export const NAMED_VERSION_JSON = (slugParam: string, contentParam: string, versionParam: string) => `SELECT row_to_json(found) FROM (
    SELECT ${versionColumns("v.")}
    FROM contents c JOIN versions v ON v.version_id = COALESCE(${versionParam}::uuid, c.latest_version_id) AND v.content_id = c.content_id
    WHERE c.content_id = ${contentParam}::uuid AND c.bucket_id = (
      (SELECT id FROM buckets WHERE slug = ${slugParam}::text)
      UNION ALL
      (SELECT bucket_id FROM bucket_slug_redirects WHERE old_slug = ${slugParam}::text)
      LIMIT 1)
  ) found`;

/** A version read as NAMED_VERSION_JSON (its timestamp arrives as text). */
export function versionFromJson(json: (Omit<ContentVersion, "createdAt"> & { createdAt: string }) | null): ContentVersion | null {
  return json ? { ...json, createdAt: new Date(json.createdAt) } : null;
}

export async function getLatestVersion(db: Queryable, bucketId: string, contentId: string): Promise<ContentVersion | null> {
  const { rows } = await db.query<ContentVersion>(LATEST_VERSION_SQL, [contentId, bucketId]);
  return rows[0] ?? null;
}

const VERSION_SQL = prepared(`SELECT ${versionColumns("v.")}
   FROM versions v JOIN contents c ON c.content_id = v.content_id
   WHERE v.version_id = $1 AND v.content_id = $2 AND c.bucket_id = $3`);

export async function getVersion(db: Queryable, bucketId: string, contentId: string, versionId: string): Promise<ContentVersion | null> {
  const { rows } = await db.query<ContentVersion>(VERSION_SQL, [versionId, contentId, bucketId]);
  return rows[0] ?? null;
}

export async function getSingletonContent(db: Queryable, bucketId: string): Promise<ContentVersion | null> {
  const { rows } = await db.query<{ contentId: string }>(
    `SELECT content_id AS "contentId" FROM contents WHERE bucket_id = $1 ORDER BY created_at LIMIT 1`,
    [bucketId],
  );
  return rows[0] ? getLatestVersion(db, bucketId, rows[0].contentId) : null;
}

/** Who deleted the document, from which bucket: the activity log's row (its versions, where creates and saves are read, go). */
export interface DeletionRecord {
  actor: Actor;
  bucket: Pick<Bucket, "slug" | "jsonSchema" | "locales">;
}

/**
 * Deletes a document with all its versions, if `versionId` is still its latest; the webhooks' deliveries (and, given
 * `recorded`, the activity log's row) are recorded in the same transaction.
 */
export async function deleteContent(
  db: Db,
  bucketId: string,
  contentId: string,
  versionId: string,
  recorded?: DeletionRecord,
): Promise<void> {
  await db.transaction(async (tx) => {
    // The subquery reads the statement's snapshot: the latest version is still there, its cascade comes after.
    const { rowCount, rows } = await tx.query<{ data: Record<string, unknown> }>(
      `DELETE FROM contents c WHERE content_id = $1 AND bucket_id = $2 AND latest_version_id = $3
       RETURNING (SELECT data FROM versions WHERE version_id = c.latest_version_id) AS data`,
      [contentId, bucketId, versionId],
    );
    if (rowCount === 0) {
      const latest = await findLatestVersionId(tx, bucketId, contentId);
      if (!latest) throw new ContentNotFoundError(contentId);
      throw new VersionConflictError(contentId, latest);
    }
    await tx.query(
      `WITH hooks AS (
         ${enqueueDeliveriesSql("document.deleted", { bucket: "$1::uuid", contentId: "$2::uuid", versionId: "$3::uuid" })}
       )
       ${changeDocumentCountSql("$1::uuid", -1)}`,
      [bucketId, contentId, versionId],
    );
    if (recorded) await recordDeletion(tx, recorded, { bucketId, contentId, versionId, data: rows[0]?.data ?? {} });
  });
}

async function recordDeletion(
  tx: Queryable,
  { actor, bucket }: DeletionRecord,
  document: { bucketId: string; contentId: string; versionId: string; data: Record<string, unknown> },
): Promise<void> {
  const key = titleProperty(bucket.jsonSchema);
  await recordActivity(tx, actor, {
    area: "document",
    action: "deleted",
    subject: documentTitle(document.data, bucket.jsonSchema, bucket.locales),
    // The title as stored (a translated one per locale): the log shows it in the interface language.
    details: {
      bucket: bucket.slug,
      bucketId: document.bucketId,
      contentId: document.contentId,
      versionId: document.versionId,
      title: key ? (document.data[key] ?? null) : null,
    },
  });
}
