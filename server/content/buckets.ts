import type { Db, Queryable } from "@server/db/client";
import type { User } from "@server/accounts/users";
import type { ScreenName } from "@core/content/screens";
import type { BucketNames } from "@core/content/bucket-name";

export interface Bucket {
  id: string;
  slug: string;
  /** The default name; `names` may hold one per interface locale (show bucketName(bucket, locale)). */
  name: string;
  names: BucketNames;
  singleton: boolean;
  private: boolean;
  collectionName: string;
  jsonSchema: Record<string, unknown>;
  locales: string[];
  /** The screen its documents are edited on (core/content/screens.ts). */
  screen: ScreenName;
  /** The schema version the bucket's schema is (schema_versions): what a saved document version records. */
  schemaVersionId: string | null;
}

const BUCKET_COLUMNS = `id, slug, name, names, singleton, private, collection_name AS "collectionName",
  json_schema AS "jsonSchema", locales, screen, schema_version_id AS "schemaVersionId"`;

/** What naming a document and linking to it needs of its bucket (its title's schema and locales, its screen's path). */
export type LinkedBucket = Pick<Bucket, "id" | "slug" | "name" | "names" | "singleton" | "screen" | "jsonSchema" | "locales">;
export type BucketSummary = Pick<Bucket, "id" | "slug" | "name" | "names" | "singleton" | "private" | "screen">;

/** What navigation needs, without the schemas, as one JSON array: a subquery of the session lookup. */
export const BUCKET_SUMMARIES_JSON = `SELECT coalesce(json_agg(json_build_object(
    'id', b.id, 'slug', b.slug, 'name', b.name, 'names', b.names, 'singleton', b.singleton, 'private', b.private,
    'screen', b.screen
  ) ORDER BY b.position, b.name), '[]') FROM buckets b`;

/** Every bucket with its schema, in the navigation's order. */
export async function listBuckets(db: Queryable): Promise<Bucket[]> {
  const { rows } = await db.query<Bucket>(`SELECT ${BUCKET_COLUMNS} FROM buckets ORDER BY position, name`);
  return rows;
}

export async function findBucketByCollection(db: Queryable, collectionName: string): Promise<Bucket | null> {
  const { rows } = await db.query<Bucket>(`SELECT ${BUCKET_COLUMNS} FROM buckets WHERE collection_name = $1 ORDER BY position LIMIT 1`, [
    collectionName,
  ]);
  return rows[0] ?? null;
}

export async function findBucketById(db: Queryable, id: string): Promise<Bucket | null> {
  const { rows } = await db.query<Bucket>(`SELECT ${BUCKET_COLUMNS} FROM buckets WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

export async function findBucketBySlug(db: Queryable, slug: string): Promise<Bucket | null> {
  const { rows } = await db.query<Bucket>(`SELECT ${BUCKET_COLUMNS} FROM buckets WHERE slug = $1`, [slug]);
  return rows[0] ?? null;
}

/** The bucket a slug names; `renamedFrom` holds the slug asked for when it is an old one. */
export interface ResolvedBucket {
  bucket: Bucket;
  renamedFrom: string | null;
}

/**
 * The bucket a slug names: its current slug, or an old one it was renamed from (bucket_slug_redirects), in which
 * case `renamedFrom` holds the slug asked for, so that pages can redirect to the new one.
 */
export async function resolveBucketSlug(db: Queryable, slug: string): Promise<ResolvedBucket | null> {
  const current = await findBucketBySlug(db, slug);
  if (current) return { bucket: current, renamedFrom: null };
  const { rows } = await db.query<Bucket>(
    `SELECT ${BUCKET_COLUMNS} FROM buckets WHERE id = (SELECT bucket_id FROM bucket_slug_redirects WHERE old_slug = $1)`,
    [slug],
  );
  return rows[0] ? { bucket: rows[0], renamedFrom: slug } : null;
}

/**
 * resolveBucketSlug as a subquery answering one JSON value (null when no bucket has the slug `param`): to read it
 * in the statement of the session lookup.
 */
export const RESOLVED_BUCKET_JSON = (param: string) => `SELECT json_build_object('bucket', row_to_json(named),
    'renamedFrom', CASE WHEN named.slug = ${param}::text THEN NULL ELSE ${param}::text END)
  FROM (
    (SELECT ${BUCKET_COLUMNS} FROM buckets WHERE slug = ${param}::text)
    UNION ALL
    (SELECT ${BUCKET_COLUMNS} FROM buckets WHERE id = (SELECT bucket_id FROM bucket_slug_redirects WHERE old_slug = ${param}::text))
    LIMIT 1
  ) named`;

/** resolveBucketSlug through the process's read cache where there is one (PGlite: server/db/read-cache.ts). */
export function resolveBucketSlugCached(db: Db, slug: string): Promise<ResolvedBucket | null> {
  const cache = db.readCache;
  return cache ? cache.read("buckets", `slug:${slug}`, () => resolveBucketSlug(db, slug)) : resolveBucketSlug(db, slug);
}

/** findBucketByCollection through the process's read cache where there is one. */
export function findBucketByCollectionCached(db: Db, collectionName: string): Promise<Bucket | null> {
  const cache = db.readCache;
  return cache
    ? cache.read("buckets", `collection:${collectionName}`, () => findBucketByCollection(db, collectionName))
    : findBucketByCollection(db, collectionName);
}

/**
 * Spec §6: no user, no buckets; private buckets never; a user with a buckets
 * list sees only those slugs.
 */
export function isBucketVisible(bucket: Pick<Bucket, "slug" | "private">, user: Pick<User, "buckets"> | null): boolean {
  if (!user || bucket.private) return false;
  return !user.buckets || user.buckets.includes(bucket.slug);
}

export function visibleBuckets<B extends Pick<Bucket, "slug" | "private">>(buckets: B[], user: Pick<User, "buckets"> | null): B[] {
  return buckets.filter((bucket) => isBucketVisible(bucket, user));
}

export async function createBucket(
  db: Queryable,
  input: Omit<Bucket, "id" | "schemaVersionId" | "screen" | "names"> & { screen?: ScreenName; position?: number; names?: BucketNames },
): Promise<Bucket> {
  const { rows } = await db.query<Bucket>(
    `INSERT INTO buckets (slug, name, singleton, private, collection_name, json_schema, locales, position, screen, names)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${BUCKET_COLUMNS}`,
    [
      input.slug,
      input.name,
      input.singleton,
      input.private,
      input.collectionName,
      input.jsonSchema,
      input.locales,
      input.position ?? 0,
      input.screen ?? "generic",
      JSON.stringify(input.names ?? {}),
    ],
  );
  const [row] = rows;
  if (!row) throw new Error("The bucket was not recorded");
  const { rows: versions } = await db.query<{ id: string }>(
    `WITH s AS (INSERT INTO schema_versions (bucket_id, number, json_schema) VALUES ($1, 1, $2) RETURNING id)
     UPDATE buckets SET schema_version_id = (SELECT id FROM s) WHERE id = $1 RETURNING schema_version_id AS id`,
    [row.id, input.jsonSchema],
  );
  return { ...row, schemaVersionId: versions[0]?.id ?? null };
}
