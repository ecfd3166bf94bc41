// The delivery read API (docs/delivery.md) under load, with an API client's bearer token: one document, one
// document and a page of 20 with populate=1 (each ~2 kB artwork resolves its maker), and a 304 revalidation, at 10
// connections, on PGlite and, when a PostgreSQL URL is given, on a fresh PostgreSQL database. The rate limit is off
// (DELIVERY_RATE_LIMIT_PER_MINUTE=0): one client makes all the requests.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import {
  copyDataDir,
  createPostgresDatabase,
  insertBucket,
  postgresAdminUrl,
  publishAll,
  storesSearchText,
  withPglite,
  withPostgres,
} from "../lib/database.mjs";
import { BENCH_BUCKET, benchDocument } from "../lib/document.mjs";
import { cpuRow, loadNotes, throughputRows } from "../lib/load-rows.mjs";

const CONNECTIONS = 10;
const DURATION_S = 8;
const WARMUP_S = 2;
const MIN_DOCUMENT = { PostgreSQL: 1000 };
const MIN_NOT_MODIFIED = { PostgreSQL: 2000 };
const WORKS = 200;
const MAKERS = 20;

export const MAKERS_BUCKET = {
  slug: "bench-delivery-makers",
  name: "Bench makers",
  collectionName: "bench-delivery-makers",
  locales: ["nl", "en"],
  jsonSchema: { type: "object", properties: { name: { type: "string", title: "Name" }, biography: { type: "string", translate: true } } },
};
export const WORKS_BUCKET = {
  slug: "bench-delivery-works",
  name: "Bench works",
  collectionName: "bench-delivery-works",
  locales: BENCH_BUCKET.locales,
  jsonSchema: {
    ...BENCH_BUCKET.jsonSchema,
    properties: { ...BENCH_BUCKET.jsonSchema.properties, makerRef: { type: "string", title: "Maker", _ref: MAKERS_BUCKET.collectionName } },
  },
};

/** The buckets, 20 makers, 200 works (each naming a maker) and an API client reading both: its token and a work's id. */
export async function seed(query) {
  const bucket = async (definition) => {
    const id = await insertBucket(query, definition);
    // A schema version, as the bucket administration writes one: the API caches the normalised schema by it.
    await query(
      `WITH s AS (INSERT INTO schema_versions (bucket_id, number, json_schema) VALUES ($1, 1, $2::json) RETURNING id)
       UPDATE buckets SET schema_version_id = (SELECT id FROM s) WHERE id = $1`,
      [id, JSON.stringify(definition.jsonSchema)],
    );
    return id;
  };
  const makersId = await bucket(MAKERS_BUCKET);
  const worksId = await bucket(WORKS_BUCKET);
  const storedText = await storesSearchText(query);
  const insert = async (bucketId, data) => {
    const contentId = randomUUID();
    const versionId = randomUUID();
    await query(
      `WITH c AS (
         INSERT INTO contents (content_id, bucket_id, latest_version_id${storedText ? ", search_text" : ""})
         VALUES ($1, $2, $3${storedText ? ", document_search_text($4::jsonb)" : ""})
       ) INSERT INTO versions (version_id, content_id, data) VALUES ($3, $1, $4::jsonb)`,
      [contentId, bucketId, versionId, JSON.stringify(data)],
    );
    return contentId;
  };
  const makers = [];
  for (let n = 0; n < MAKERS; n += 1)
    makers.push(await insert(makersId, { name: `Maker ${n}`, biography: { nl: `Schilder ${n}`, en: `Painter ${n}` } }));
  let work = null;
  for (let n = 0; n < WORKS; n += 1) work = await insert(worksId, { ...benchDocument(n + 1), makerRef: makers[n % MAKERS] });
  await publishAll(query);
  const secret = randomBytes(32).toString("base64url");
  const { rows } = await query(
    `INSERT INTO api_clients (name, secret_hash, read_buckets) VALUES ('Bench exhibit app', $1, $2) RETURNING id`,
    [createHash("sha256").update(secret).digest("base64url"), [MAKERS_BUCKET.slug, WORKS_BUCKET.slug]],
  );
  return { token: `${rows[0].id}.${secret}`, work };
}

export const ENV = { DELIVERY_RATE_LIMIT_PER_MINUTE: "0" };

async function onPglite(ctx) {
  const dataDir = copyDataDir(ctx, "delivery-pglite");
  const seeded = await withPglite(dataDir, seed);
  const server = await ctx.startServer({ dataDir, env: ENV, profileName: "delivery-pglite" });
  return {
    server,
    ...seeded,
    stop: async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function onPostgres(ctx, adminUrl) {
  const database = await createPostgresDatabase(adminUrl);
  const dataDir = path.join(ctx.tmpDir, "delivery-postgres");
  mkdirSync(dataDir, { recursive: true });
  let server = null;
  const stop = async () => {
    await server?.stop();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    server = await ctx.startServer({ dataDir, env: { ...ENV, DATABASE_URL: database.url }, profileName: "delivery-postgres" });
    const seeded = await withPostgres(database.url, seed);
    ctx.log(`PostgreSQL: fresh database ${database.name}`);
    return { server, ...seeded, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function measure(ctx, database, bench) {
  const { server, token, work } = bench;
  const headers = { Authorization: `Bearer ${token}` };
  const base = `${server.url}/api/v1/delivery/buckets/${WORKS_BUCKET.slug}`;
  const urls = {
    one: `${base}/documents/${work}?locale=en`,
    onePopulated: `${base}/documents/${work}?locale=en&populate=1`,
    page: `${base}/documents?locale=en&populate=1&limit=20`,
  };
  // Each by hand first: under load a wrong answer would only show as a count of non-2xx answers.
  for (const url of Object.values(urls)) {
    const response = await fetch(url, { headers });
    if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  }
  const page = await (await fetch(urls.page, { headers })).json();
  if (page.items.length !== 20 || typeof page.items[0].data.makerRef !== "object")
    throw new Error("the page is not 20 documents with their makers");
  const load = { connections: CONNECTIONS, duration: DURATION_S, warmup: WARMUP_S, headers };
  const rows = [
    ...(await throughputRows(ctx, server, {
      ...load,
      label: `delivery: one document (${database})`,
      url: urls.one,
      minRps: MIN_DOCUMENT[database],
    })),
    ...(await throughputRows(ctx, server, { ...load, label: `delivery: one document, populate=1 (${database})`, url: urls.onePopulated })),
    ...(await throughputRows(ctx, server, { ...load, label: `delivery: a page of 20, populate=1 (${database})`, url: urls.page })),
  ];

  // Revalidation: If-None-Match with the document's ETag; every answer should be a 304 (autocannon counts it non-2xx).
  const etag = (await fetch(urls.one, { headers })).headers.get("etag");
  const check = await fetch(urls.one, { headers: { ...headers, "If-None-Match": etag } });
  if (check.status !== 304) throw new Error(`If-None-Match answered ${check.status}, not 304`);
  const label = `delivery: 304 revalidation of one document (${database})`;
  ctx.log(`${label}: ${WARMUP_S} s warm-up, then ${DURATION_S} s at ${CONNECTIONS} connection(s)`);
  const result = await ctx.measureLoad({ ...load, headers: { ...headers, "If-None-Match": etag }, url: urls.one, server });
  const notModified = { ...result, non2xx: result.total - result.non2xx };
  const { failed, note } = loadNotes(notModified);
  const minRps = MIN_NOT_MODIFIED[database];
  const pass = minRps === undefined ? null : result.requestsPerSecond >= minRps && !failed;
  rows.push(
    {
      name: `${label} req/s`,
      value: result.requestsPerSecond,
      unit: "req/s",
      budget: minRps === undefined ? undefined : `>= ${minRps.toLocaleString("en")} req/s`,
      pass,
      note: failed ? `${note} (here: answers that were not 304)` : note,
    },
    { name: `${label} p50`, value: result.p50, unit: "ms" },
    { name: `${label} p99`, value: result.p99, unit: "ms" },
    cpuRow(label, result),
  );
  return rows;
}

export async function delivery(ctx) {
  const rows = [];
  const pglite = await onPglite(ctx);
  try {
    rows.push(...(await measure(ctx, "PGlite", pglite)));
  } finally {
    await pglite.stop();
  }
  const adminUrl = postgresAdminUrl();
  if (!adminUrl) {
    ctx.log("PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to measure it)");
    return rows;
  }
  const postgres = await onPostgres(ctx, adminUrl);
  try {
    rows.push(...(await measure(ctx, "PostgreSQL", postgres)));
  } finally {
    await postgres.stop();
  }
  return rows;
}
