#!/usr/bin/env node
// The least a server must do for a save and a read through the same driver as Vitrine: a bare node:http server.
//   POST /save      JSON-parses the body ({ content }), inserts the document as a contents row and a jsonb version
//                   in one statement (the row shapes of server/db/migrations/001_init.sql, their indexes, no
//                   foreign key to a bucket), answers 201 with the ids as JSON
//   GET /read/{id}  one SELECT of a document's latest version by id, answers it as JSON
//   GET /healthz    SELECT 1
// Environment: PORT, HOST; BARE_DATABASE_URL (PostgreSQL through `pg`, a pool of BARE_POOL_MAX) or BARE_DATA_DIR
// (PGlite in this process with pg_trgm and shared_buffers=BARE_SHARED_BUFFERS, like openPglite).
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import path from "node:path";

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS bare_contents (
    content_id uuid PRIMARY KEY,
    bucket_id uuid NOT NULL,
    latest_version_id uuid NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX IF NOT EXISTS bare_contents_bucket_idx ON bare_contents (bucket_id, updated_at DESC, content_id DESC);
  CREATE TABLE IF NOT EXISTS bare_versions (
    version_id uuid PRIMARY KEY,
    content_id uuid NOT NULL REFERENCES bare_contents (content_id) DEFERRABLE INITIALLY DEFERRED,
    data jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX IF NOT EXISTS bare_versions_content_idx ON bare_versions (content_id, created_at DESC);`;

const INSERT = `WITH new_content AS (
    INSERT INTO bare_contents (content_id, bucket_id, latest_version_id) VALUES ($1, $2, $3)
  ) INSERT INTO bare_versions (version_id, content_id, data) VALUES ($3, $1, $4) RETURNING created_at AS "createdAt"`;
const SELECT = `SELECT v.content_id AS "contentId", v.version_id AS "versionId", v.data, v.created_at AS "createdAt"
  FROM bare_contents c JOIN bare_versions v ON v.version_id = c.latest_version_id WHERE c.content_id = $1`;
const BUCKET = randomUUID();

async function openDatabase() {
  if (process.env.BARE_DATABASE_URL) {
    const { default: pg } = await import("pg");
    const pool = new pg.Pool({ connectionString: process.env.BARE_DATABASE_URL, max: Number(process.env.BARE_POOL_MAX ?? 10) });
    return { query: (sql, params) => pool.query(sql, params), exec: (sql) => pool.query(sql), close: () => pool.end() };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const db = await PGlite.create(path.resolve(process.env.BARE_DATA_DIR, "pgdata"), {
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${process.env.BARE_SHARED_BUFFERS ?? "16MB"}`],
  });
  return { query: (sql, params) => db.query(sql, params), exec: (sql) => db.exec(sql), close: () => db.close() };
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function json(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

const db = await openDatabase();
await db.exec(SCHEMA);

const server = createServer(async (req, res) => {
  try {
    if (req.method === "POST" && req.url === "/save") {
      const { content } = JSON.parse(await readBody(req));
      const contentId = randomUUID();
      const versionId = randomUUID();
      const { rows } = await db.query(INSERT, [contentId, BUCKET, versionId, content]);
      return json(res, 201, { contentId, versionId, createdAt: rows[0].createdAt });
    }
    if (req.method === "GET" && req.url.startsWith("/read/")) {
      const { rows } = await db.query(SELECT, [req.url.slice("/read/".length)]);
      return rows[0] ? json(res, 200, rows[0]) : json(res, 404, { error: "not found" });
    }
    if (req.url === "/healthz") {
      await db.query("SELECT 1");
      return json(res, 200, { status: "ok" });
    }
    json(res, 404, { error: "not found" });
  } catch (error) {
    json(res, 500, { error: String(error) });
  }
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), process.env.HOST ?? "127.0.0.1");
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => server.close(() => void db.close().then(() => process.exit(0))));
}
