import type { Services } from "@server/services";
import type { Db, Queryable } from "@server/db/client";
import type { User } from "@server/accounts/users";
import { recordActivity } from "@server/admin/activity";
import { removeScheduledMedia, scheduleBucketMediaRemoval } from "@server/media/removals";
import { HttpError } from "@server/errors";
import { findBucketBySlug, type Bucket } from "./buckets";
import { documentCountSql } from "./document-counts";
import type { BucketDefinition } from "@core/content/bucket-definition";
import { checkSchemaDialect, type DialectOptions } from "@core/schema/dialect";
import { screenRequirements, type ScreenTable } from "@core/content/screen-table";
import { inlineRefusals } from "./subforms";
import { parseJsonText } from "@core/schema/json-text";
import type { Message } from "@core/messages";
import { cleanBucketNames } from "@core/content/bucket-name";

/*
 * The bucket administration (/settings/buckets): the list, the checks of a definition, the one place a bucket and
 * its schema are saved (saveBucket) and delete (schema versions: schema-history.ts; export and import:
 * bucket-transfer.ts). Every change is recorded with
 * recordActivity in the same transaction.
 */

export interface AdminBucketRow extends Pick<Bucket, "id" | "slug" | "name" | "names" | "singleton" | "private" | "locales"> {
  contentCount: number;
  lastChange: Date;
}

/** Every bucket, private ones too, with its document count and its last change (a document's or its own). */
export async function listAdminBuckets(db: Queryable): Promise<AdminBucketRow[]> {
  const { rows } = await db.query<AdminBucketRow>(
    `SELECT b.id, b.slug, b.name, b.names, b.singleton, b.private, b.locales, ${documentCountSql("b.id")} AS "contentCount",
       greatest(b.updated_at, (SELECT max(c.updated_at) FROM contents c WHERE c.bucket_id = b.id)) AS "lastChange"
     FROM buckets b ORDER BY b.position, b.name`,
  );
  return rows;
}

export interface AdminBucket extends Bucket {
  contentCount: number;
}

export async function findAdminBucket(db: Queryable, slug: string): Promise<AdminBucket | null> {
  const bucket = await findBucketBySlug(db, slug);
  if (!bucket) return null;
  const { rows } = await db.query<{ count: number }>(`SELECT ${documentCountSql("$1::uuid")} AS count`, [bucket.id]);
  return { ...bucket, contentCount: rows[0]?.count ?? 0 };
}

/** Every collection name: what a `_ref` may name. */
export async function collectionNames(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(`SELECT DISTINCT collection_name AS name FROM buckets ORDER BY 1`);
  return rows.map((row) => row.name);
}

/** What the form sends once its fixed fields are valid: the schema still as text. */
export interface BucketInput extends Omit<BucketDefinition, "jsonSchema"> {
  jsonSchemaText: string;
}

export type BucketCheck =
  { ok: true; definition: BucketDefinition } | { ok: false; fieldErrors: Record<string, string[]>; schemaErrors: Message[] };

/** The schema text: parsed (an error names its line and column), then the dialect check with the collections known. */
export function checkSchemaText(
  text: string,
  locales: readonly string[],
  collections: readonly string[],
  inlineRefused?: DialectOptions["inlineRefused"],
): { schema: Record<string, unknown> | null; errors: Message[] } {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { schema: null, errors: [parsed.error] };
  const errors = checkSchemaDialect(parsed.value, { locales, collections, inlineRefused });
  return { schema: errors.length ? null : (parsed.value as Record<string, unknown>), errors };
}

/**
 * The checks only the server can make, over a definition whose fields are well-formed: the slug and the collection
 * name unique (an old slug of another bucket may be taken: its redirect goes), and the schema in the dialect with
 * `_ref` checked against the collections that exist (this bucket's own included, under its new name).
 */
export async function checkBucketDefinition(
  db: Queryable,
  input: BucketInput,
  existing: Pick<Bucket, "id" | "collectionName"> | null,
  screens: ScreenTable,
): Promise<BucketCheck> {
  const fieldErrors: Record<string, string[]> = {};
  const { rows: slugs } = await db.query<{ id: string }>(`SELECT id FROM buckets WHERE slug = $1`, [input.slug]);
  if (slugs.some((row) => row.id !== existing?.id)) fieldErrors.slug = ["adminBuckets.errors.slugTaken"];
  const { rows: collections } = await db.query<{ id: string }>(`SELECT id FROM buckets WHERE collection_name = $1`, [input.collectionName]);
  if (collections.some((row) => row.id !== existing?.id)) fieldErrors.collectionName = ["adminBuckets.errors.collectionTaken"];
  const known = (await collectionNames(db)).filter((name) => name !== existing?.collectionName);
  const inlineRefused = await inlineRefusals(db, input.jsonSchemaText);
  const { schema, errors } = checkSchemaText(input.jsonSchemaText, input.locales, [...known, input.collectionName], inlineRefused);
  // What the chosen screen needs of the definition (a video-cases field for sessions …), once the schema is sound.
  const screenErrors = schema ? screenRequirements(screens, { screen: input.screen, singleton: input.singleton, jsonSchema: schema }) : [];
  if (screenErrors.length) fieldErrors.screen = screenErrors.map((error) => error.key);
  if (Object.keys(fieldErrors).length || !schema) return { ok: false, fieldErrors, schemaErrors: errors };
  const { jsonSchemaText: _text, ...fields } = input;
  return { ok: true, definition: { ...fields, jsonSchema: schema } };
}

export interface SavedBucket {
  bucket: Bucket;
  created: boolean;
  schemaChanged: boolean;
  /** The slug the bucket had before, when this save renamed it. */
  renamedFrom: string | null;
  schemaVersion: number;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * THE one place a bucket and its schema are saved (create or update), after checkBucketDefinition. In one
 * transaction: the bucket row; when the schema changed (or the bucket is new) a schema_versions row numbered one
 * after the last, which the bucket then points at; when the slug changed, the old slug as a redirect (and a redirect
 * of another bucket that held the new slug is dropped); the admin activity (areas 'bucket' and 'schema').
 * A confirmation before a schema change that breaks documents (the impact preview) belongs in the caller, before
 * this is called.
 */
export async function saveBucket(
  db: Db,
  actor: Pick<User, "id" | "name">,
  existing: Bucket | null,
  definition: BucketDefinition,
): Promise<SavedBucket> {
  return db.transaction(async (tx) => {
    const { slug, name, names, singleton, private: isPrivate, collectionName, locales, screen, jsonSchema } = definition;
    let bucketId: string;
    const schemaChanged = !existing || !sameJson(existing.jsonSchema, jsonSchema);
    if (existing) {
      bucketId = existing.id;
      await tx.query(
        `UPDATE buckets SET slug = $2, name = $3, singleton = $4, private = $5, collection_name = $6, locales = $7,
           json_schema = $8, screen = $9, names = $10, updated_at = now() WHERE id = $1`,
        [bucketId, slug, name, singleton, isPrivate, collectionName, locales, JSON.stringify(jsonSchema), screen, JSON.stringify(names)],
      );
    } else {
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO buckets (slug, name, singleton, private, collection_name, json_schema, locales, screen, names, position)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, (SELECT coalesce(max(position), 0) + 1 FROM buckets)) RETURNING id`,
        [slug, name, singleton, isPrivate, collectionName, JSON.stringify(jsonSchema), locales, screen, JSON.stringify(names)],
      );
      const [row] = rows;
      if (!row) throw new Error("The bucket was not recorded");
      bucketId = row.id;
    }
    // A slug now in use is no longer anyone's redirect; the slug left behind becomes one.
    await tx.query(`DELETE FROM bucket_slug_redirects WHERE old_slug = $1`, [slug]);
    const renamedFrom = existing && existing.slug !== slug ? existing.slug : null;
    if (renamedFrom) {
      // Lists of bucket slugs (a user's buckets, an invitation's, an API client's scope) follow the rename.
      await renameSlugInLists(tx, renamedFrom, slug);
      await tx.query(
        `INSERT INTO bucket_slug_redirects (old_slug, bucket_id) VALUES ($1, $2) ON CONFLICT (old_slug) DO UPDATE SET bucket_id = $2, created_at = now()`,
        [renamedFrom, bucketId],
      );
    }
    let schemaVersion: number;
    if (schemaChanged) {
      const { rows } = await tx.query<{ number: number }>(
        `WITH s AS (
           INSERT INTO schema_versions (bucket_id, number, json_schema, created_by)
           VALUES ($1, (SELECT coalesce(max(number), 0) + 1 FROM schema_versions WHERE bucket_id = $1), $2, $3)
           RETURNING id, number
         ), pointed AS (UPDATE buckets SET schema_version_id = (SELECT id FROM s) WHERE id = $1)
         SELECT number FROM s`,
        [bucketId, JSON.stringify(jsonSchema), actor.id],
      );
      schemaVersion = rows[0]?.number ?? 1;
    } else {
      const { rows } = await tx.query<{ number: number }>(
        `SELECT coalesce(max(number), 1) AS number FROM schema_versions WHERE bucket_id = $1`,
        [bucketId],
      );
      schemaVersion = rows[0]?.number ?? 1;
    }
    const changes = existing ? changedFields(existing, definition) : [];
    if (!existing) await recordActivity(tx, actor, { area: "bucket", action: "created", subject: slug, details: { name } });
    else if (changes.some((field) => field !== "jsonSchema")) {
      await recordActivity(tx, actor, {
        area: "bucket",
        action: "updated",
        subject: slug,
        details: { changes: changes.filter((field) => field !== "jsonSchema"), ...(renamedFrom ? { renamedFrom } : {}) },
      });
    }
    if (schemaChanged)
      await recordActivity(tx, actor, {
        area: "schema",
        action: existing ? "updated" : "created",
        subject: slug,
        details: { version: schemaVersion },
      });
    const { rows } = await tx.query<Bucket>(
      `SELECT id, slug, name, names, singleton, private, collection_name AS "collectionName", json_schema AS "jsonSchema", locales,
         screen, schema_version_id AS "schemaVersionId" FROM buckets WHERE id = $1`,
      [bucketId],
    );
    const bucket = rows[0];
    if (!bucket) throw new Error("The bucket was not recorded");
    return { bucket, created: !existing, schemaChanged, renamedFrom, schemaVersion };
  });
}

/** The tables that hold lists of bucket slugs: who may see which buckets. */
const SLUG_LISTS: ReadonlyArray<[table: string, column: string]> = [
  ["users", "buckets"],
  ["invitations", "buckets"],
  ["api_clients", "read_buckets"],
  ["api_clients", "write_buckets"],
];

async function renameSlugInLists(tx: Queryable, from: string, to: string): Promise<void> {
  for (const [table, column] of SLUG_LISTS) {
    await tx.query(`UPDATE ${table} SET ${column} = array_replace(${column}, $1, $2) WHERE $1 = ANY(${column})`, [from, to]);
  }
}

/** A deleted bucket leaves those lists, so that a later bucket with the same slug is not given away. */
async function removeSlugFromLists(tx: Queryable, slug: string): Promise<void> {
  for (const [table, column] of SLUG_LISTS) {
    await tx.query(`UPDATE ${table} SET ${column} = array_remove(${column}, $1) WHERE $1 = ANY(${column})`, [slug]);
  }
}

export type DefinitionField = keyof BucketDefinition;

/** Which fields of a definition differ from the bucket's (the import's confirmation lists them). */
export function changedFields(bucket: Bucket, definition: BucketDefinition): DefinitionField[] {
  const fields: DefinitionField[] = [];
  if (bucket.slug !== definition.slug) fields.push("slug");
  if (bucket.name !== definition.name) fields.push("name");
  if (!sameJson(cleanBucketNames(bucket.names), cleanBucketNames(definition.names))) fields.push("names");
  if (bucket.singleton !== definition.singleton) fields.push("singleton");
  if (bucket.private !== definition.private) fields.push("private");
  if (bucket.collectionName !== definition.collectionName) fields.push("collectionName");
  if (!sameJson(bucket.locales, definition.locales)) fields.push("locales");
  if (bucket.screen !== definition.screen) fields.push("screen");
  if (!sameJson(bucket.jsonSchema, definition.jsonSchema)) fields.push("jsonSchema");
  return fields;
}

/**
 * Deletes a bucket: refused (409) while it holds documents unless `confirmSlug` is its slug. Its documents and
 * versions go with it (ON DELETE CASCADE), its schema versions and redirects too; its media files are scheduled for
 * removal in the same transaction (server/media/removals.ts) and removed right after the commit.
 */
export async function deleteBucket(
  context: Services,
  actor: Pick<User, "id" | "name">,
  slug: string,
  confirmSlug: string,
): Promise<{ documents: number; media: number }> {
  const outcome = await context.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(`SELECT id FROM buckets WHERE slug = $1 FOR UPDATE`, [slug]);
    const locked = rows[0];
    if (!locked) throw new HttpError(404, "errors.notFound");
    // Counted by a statement of its own, after the lock: a document created meanwhile held the bucket's row (its key)
    // until its commit, and only a new statement sees that commit.
    const { rows: counted } = await tx.query<{ count: number }>(`SELECT ${documentCountSql("$1::uuid")} AS count`, [locked.id]);
    const row = { id: locked.id, count: counted[0]?.count ?? 0 };
    if (row.count > 0 && confirmSlug.trim() !== slug)
      throw new HttpError(409, "adminBuckets.delete.confirmRequired", { count: row.count, slug });
    const media = await scheduleBucketMediaRemoval(tx, row.id);
    await tx.query(`DELETE FROM buckets WHERE id = $1`, [row.id]);
    await removeSlugFromLists(tx, slug);
    await recordActivity(tx, actor, {
      area: "bucket",
      action: "deleted",
      subject: slug,
      details: { documents: row.count, media: media.scheduled, mediaKept: media.kept },
    });
    return { documents: row.count, media: media.scheduled };
  });
  void removeScheduledMedia(context.db, context.media.storage, context.logger).catch((error: unknown) =>
    context.logger.warn({ err: error }, "removing the media of a deleted bucket failed; the media sweep retries"),
  );
  return outcome;
}
