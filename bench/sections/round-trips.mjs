// Database round trips per request on PostgreSQL: the server talks to PostgreSQL through a counting proxy
// (lib/pg-proxy.mjs), and after a warm-up each kind of request runs N times one after another. Printed per request:
// round trips (batches the server waited for), statements parsed (near zero when prepared statements are reused),
// statements run, and Sync + Query messages: each the median over the requests, counted from just before a request
// to its answer's last byte, so what the server does in the background now and then (its job runner's polls)
// does not count. Work a request leaves for after its answer lands in the next one's count, as in steady use.
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { createPostgresDatabase, insertBucket, postgresAdminUrl, seedDocuments, withPostgres } from "../lib/database.mjs";
import { BENCH_BUCKET, benchDocument } from "../lib/document.mjs";
import { startPgProxy } from "../lib/pg-proxy.mjs";
import { median } from "../lib/report.mjs";
import { ENV as DELIVERY_ENV, WORKS_BUCKET, seed as seedDelivery } from "./delivery.mjs";

const REQUESTS = 50;
const WARMUP = 10;
const OVERVIEW_DOCUMENTS = 1000;

async function send({ url, method = "GET", headers = {}, body }, expected) {
  const response = await fetch(url, { method, headers, body });
  await response.arrayBuffer();
  if (response.status !== expected) throw new Error(`${method} ${url} answered ${response.status}, not ${expected}`);
}

/** The median of each count over the requests' counts. */
function medians(samples) {
  const of = (key) => median(samples.map((counts) => counts[key]));
  return { roundTrips: of("roundTrips"), parses: of("parses"), executes: of("executes"), syncs: of("syncs") };
}

export async function roundTrips(ctx) {
  const adminUrl = postgresAdminUrl();
  if (!adminUrl) {
    ctx.log("skipped: it counts PostgreSQL's protocol (set BENCH_DATABASE_URL or TEST_DATABASE_URL)");
    return [];
  }
  const target = new URL(adminUrl);
  const proxy = await startPgProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const database = await createPostgresDatabase(adminUrl);
  const viaProxy = new URL(database.url);
  viaProxy.hostname = "127.0.0.1";
  viaProxy.port = String(proxy.port);
  const dataDir = path.join(ctx.tmpDir, "round-trips");
  mkdirSync(dataDir, { recursive: true });
  let server = null;
  try {
    server = await ctx.startServer({ dataDir, env: { ...DELIVERY_ENV, DATABASE_URL: viaProxy.toString() }, profileName: "round-trips" });
    const seeded = await withPostgres(database.url, async (query) => {
      const bucketId = await insertBucket(query, BENCH_BUCKET);
      await seedDocuments(query, bucketId, { from: 1, to: OVERVIEW_DOCUMENTS });
      return seedDelivery(query);
    });
    const cookie = await ctx.signIn(server);
    const json = { "Content-Type": "application/json", Cookie: cookie, Origin: server.url };
    const saveBody = JSON.stringify({ content: benchDocument(1), collection: BENCH_BUCKET.collectionName });
    const saveUrl = `${server.url}/api/v1/buckets/${BENCH_BUCKET.slug}/save`;
    const saved = await (await fetch(saveUrl, { method: "POST", headers: json, body: saveBody })).json();
    const kinds = [
      { label: "JSON API save", request: { url: saveUrl, method: "POST", headers: json, body: saveBody }, status: 201 },
      {
        label: "JSON API read",
        request: {
          url: `${server.url}/api/v1/buckets/${BENCH_BUCKET.slug}/content/${saved.contentId}/latest`,
          headers: { Cookie: cookie },
        },
        status: 200,
      },
      { label: "signed-in home page", request: { url: `${server.url}/`, headers: { Cookie: cookie } }, status: 200 },
      {
        label: `overview page (${OVERVIEW_DOCUMENTS.toLocaleString("en")} documents)`,
        request: { url: `${server.url}/b/${BENCH_BUCKET.slug}`, headers: { Cookie: cookie } },
        status: 200,
      },
      {
        label: "delivery read of one document",
        request: {
          url: `${server.url}/api/v1/delivery/buckets/${WORKS_BUCKET.slug}/documents/${seeded.work}?locale=en`,
          headers: { Authorization: `Bearer ${seeded.token}` },
        },
        status: 200,
      },
    ];

    const rows = [];
    for (const kind of kinds) {
      for (let i = 0; i < WARMUP; i++) await send(kind.request, kind.status);
      const samples = [];
      const started = performance.now();
      for (let i = 0; i < REQUESTS; i++) {
        proxy.reset();
        await send(kind.request, kind.status);
        samples.push(proxy.counts());
      }
      const elapsed = performance.now() - started;
      const each = medians(samples);
      const mean = samples.reduce((sum, counts) => sum + counts.roundTrips, 0) / REQUESTS;
      ctx.log(`${kind.label}: ${REQUESTS} requests in ${(elapsed / 1000).toFixed(1)} s`);
      rows.push(
        {
          name: `round trips per request, ${kind.label} (PostgreSQL)`,
          value: each.roundTrips,
          unit: "",
          note: `median of ${REQUESTS}; statements run ${each.executes}, Sync + Query messages ${each.syncs}; mean round trips ${mean.toFixed(2)} (background work included)`,
        },
        { name: `statements parsed per request, ${kind.label} (PostgreSQL)`, value: each.parses, unit: "", note: `median of ${REQUESTS}` },
      );
    }
    return rows;
  } finally {
    await server?.stop();
    await proxy.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
