// Direct database access for the content sections: a fresh PostgreSQL database
// per run, the bench bucket, and documents seeded in bulk with SQL.
import { randomBytes } from "node:crypto";
import { cpSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import pg from "pg";
import { benchDocument } from "./document.mjs";

/** Where PostgreSQL runs, when the caller has one: BENCH_DATABASE_URL, else TEST_DATABASE_URL. */
export function postgresAdminUrl() {
  return process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || null;
}

function withDatabaseName(url, name) {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** A new, empty database next to the admin URL's: { url, drop() }. */
export async function createPostgresDatabase(adminUrl) {
  const name = `vitrine_bench_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: withDatabaseName(adminUrl, name),
    async drop() {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      try {
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

/** A copy of the prepared data dir (migrated, admin and demo content) that a section may change. */
export function copyDataDir(ctx, name) {
  const dir = path.join(ctx.tmpDir, name);
  cpSync(ctx.dataDir, dir, { recursive: true });
  return dir;
}

/**
 * fn(query) on the PGlite database of a data dir. PGlite is one process's
 * database: the data dir's server must not be running meanwhile.
 */
export async function withPglite(dataDir, fn) {
  const db = await PGlite.create(path.join(dataDir, "pgdata"), { extensions: { pg_trgm } });
  try {
    return await fn((sql, params) => db.query(sql, params));
  } finally {
    await db.close();
  }
}

/** fn(query) on a PostgreSQL database (a running server may use it too). */
export async function withPostgres(url, fn) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn((sql, params) => client.query(sql, params));
  } finally {
    await client.end();
  }
}

/** Inserts a bucket (see lib/document.mjs) and answers its id. */
export async function insertBucket(query, bucket) {
  const { rows } = await query(
    `INSERT INTO buckets (slug, name, singleton, private, collection_name, json_schema, locales, position)
     VALUES ($1, $2, false, false, $3, $4::json, $5, 100) RETURNING id`,
    [bucket.slug, bucket.name, bucket.collectionName, JSON.stringify(bucket.jsonSchema), bucket.locales],
  );
  return rows[0].id;
}

/** Whether the database keeps a document's search text with its contents row: a build before migration 027 (--compare) does not. */
export async function storesSearchText(query) {
  const { rows } = await query("SELECT 1 FROM information_schema.columns WHERE table_name = 'contents' AND column_name = 'search_text'");
  return rows.length > 0;
}

/**
 * Publishes every document's newest version, as the demo's first start does, where the build publishes at all (a
 * build before migration 034, --compare, serves the newest version and has nothing to set): its delivery API then
 * answers the same documents.
 */
export async function publishAll(query) {
  const { rows } = await query(
    "SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'contents' AND column_name IN ('published_version_id', 'published_search_text')",
  );
  const columns = new Set(rows.map((row) => row.name));
  if (!columns.has("published_version_id")) return;
  const text = columns.has("published_search_text") ? ", published_search_text = search_text" : "";
  await query(`UPDATE contents SET published_version_id = latest_version_id, published_at = updated_at${text}`);
}

/** Whether a bucket's document count is kept in slots: a build before migration 028 (--compare) keeps it in buckets.content_count. */
async function countsInSlots(query) {
  const { rows } = await query("SELECT to_regclass('bucket_document_counts') IS NOT NULL AS slots");
  return rows[0].slots;
}

/**
 * Documents `from`..`to` (inclusive) of the bench bucket in one statement: a
 * contents row pointing at one version each, like createContent writes, one
 * second older per number so the newest is number 1; and the bucket's
 * document count, which the overview reads instead of count(*).
 */
export async function seedDocuments(query, bucketId, { from, to }) {
  const template = benchDocument(0);
  delete template.title;
  delete template.inventoryNumber;
  const storedText = await storesSearchText(query);
  await query(
    `WITH numbered AS MATERIALIZED (
       SELECT n, gen_random_uuid() AS content_id, gen_random_uuid() AS version_id,
              now() - n * interval '1 second' AS at,
              $4::jsonb || jsonb_build_object(
                'title', jsonb_build_object('nl', 'Licht op het wad ' || n, 'en', 'Light on the mudflats ' || n),
                'inventoryNumber', 'SM-' || n,
                'year', 1880 + n % 100) AS data
       FROM generate_series($2::int, $3::int) AS n
     ), new_contents AS (
       INSERT INTO contents (content_id, bucket_id, latest_version_id, created_at, updated_at${storedText ? ", search_text" : ""})
       SELECT content_id, $1, version_id, at, at${storedText ? ", document_search_text(data)" : ""} FROM numbered
     )
     INSERT INTO versions (version_id, content_id, data, created_at)
     SELECT version_id, content_id, data, at FROM numbered`,
    [bucketId, from, to, JSON.stringify(template)],
  );
  const added = to - from + 1;
  if (await countsInSlots(query)) {
    await query(
      `INSERT INTO bucket_document_counts AS counts (bucket_id, slot, documents) VALUES ($1, 0, $2)
       ON CONFLICT (bucket_id, slot) DO UPDATE SET documents = counts.documents + excluded.documents`,
      [bucketId, added],
    );
  } else {
    await query("UPDATE buckets SET content_count = content_count + $2 WHERE id = $1", [bucketId, added]);
  }
}
