// The bucket overview (/b/{slug}) with 10,000 and with 100,000 documents,
// seeded with SQL, on PGlite and (when a PostgreSQL URL is given) on PostgreSQL.
// Latency is measured at one connection: a p50 budget is about one editor
// opening the page, and at 10 connections it would mostly measure queueing.
import { startOnPglite, startOnPostgres } from "../lib/bench-server.mjs";
import { postgresAdminUrl, seedDocuments, withPostgres } from "../lib/database.mjs";
import { BENCH_BUCKET } from "../lib/document.mjs";
import { loadNotes } from "../lib/load-rows.mjs";
import { sampleSequential } from "../lib/sequential.mjs";

const SIZES = [10_000, 100_000];
const BUDGET_SIZE = 100_000;
const MAX_P50_MS = 15;
const DURATION_S = 5;
const WARMUP_S = 1;
const SEARCH = "wad 4242"; // a title: one document in 10,000, eleven in 100,000
const SEARCH_SAMPLES = 5;
const SEARCH_MAX_MS = 8_000;

async function measure(ctx, server, cookie, label, size) {
  const url = `${server.url}/b/${BENCH_BUCKET.slug}`;
  const headers = { Cookie: cookie };
  const page = await fetch(url, { headers });
  const html = await page.text();
  if (page.status !== 200 || !html.includes("Licht op het wad 1<")) {
    throw new Error(`GET ${url} answered ${page.status}${page.status === 200 ? " without the newest document" : ""}`);
  }

  ctx.log(`${label}: ${WARMUP_S} s warm-up, then ${DURATION_S} s at 1 connection`);
  const result = await ctx.measureLoad({ url, headers, connections: 1, duration: DURATION_S, warmup: WARMUP_S, server });
  const { failed, note } = loadNotes(result);
  const budgeted = size === BUDGET_SIZE;
  const rows = [
    {
      name: `${label} p50`,
      value: result.p50,
      unit: "ms",
      budget: budgeted ? `< ${MAX_P50_MS} ms` : undefined,
      pass: budgeted ? result.p50 < MAX_P50_MS && !failed : null,
      note,
    },
    { name: `${label} p99`, value: result.p99, unit: "ms" },
    { name: `${label} server CPU per request`, value: result.serverCpuMsPerRequest, unit: "ms" },
  ];

  const searchUrl = `${url}?q=${encodeURIComponent(SEARCH)}`;
  ctx.log(`${label} ?q=${SEARCH}: up to ${SEARCH_SAMPLES} requests one after another (at most ${SEARCH_MAX_MS / 1000} s)`);
  const search = await sampleSequential({ url: searchUrl, headers, count: SEARCH_SAMPLES, maxMs: SEARCH_MAX_MS, server });
  const statuses = search.statuses.filter((status) => status !== 200);
  rows.push({
    name: `${label} ?q=… p50`,
    value: search.p50,
    unit: "ms",
    note: `median of ${search.samples}, slowest ${search.max.toFixed(0)} ms, server CPU ${search.serverCpuMsPerRequest?.toFixed(0) ?? "n/a"} ms per request${statuses.length ? `; answered ${statuses.join(", ")}` : ""}`,
  });
  return rows;
}

/** Grows the bucket to each size in turn; `grow(from, to)` adds documents and answers the server to measure. */
async function measureSizes(ctx, database, grow) {
  const rows = [];
  let seeded = 0;
  for (const size of SIZES) {
    const started = performance.now();
    const server = await grow(seeded + 1, size);
    ctx.log(`${database}: documents ${seeded + 1}–${size} seeded, server ready, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    seeded = size;
    const cookie = await ctx.signIn(server);
    rows.push(...(await measure(ctx, server, cookie, `/b/{slug}, ${size.toLocaleString("en")} documents (${database})`, size)));
  }
  return rows;
}

async function onPglite(ctx) {
  let bench = null;
  const grow = async (from, to) => {
    const seed = (query, bucketId) => seedDocuments(query, bucketId, { from, to });
    if (bench) return bench.reseed(seed);
    bench = await startOnPglite(ctx, "overview-pglite", seed);
    return bench.server;
  };
  try {
    return await measureSizes(ctx, "PGlite", grow);
  } finally {
    await bench?.stop();
  }
}

async function onPostgres(ctx, adminUrl) {
  const bench = await startOnPostgres(ctx, adminUrl, "overview-postgres");
  const grow = async (from, to) => {
    await withPostgres(bench.database.url, async (query) => {
      await seedDocuments(query, bench.bucketId, { from, to });
      // What autovacuum would have done on a database that grew over time.
      await query("ANALYZE contents, versions");
    });
    return bench.server;
  };
  try {
    return await measureSizes(ctx, "PostgreSQL", grow);
  } finally {
    await bench.stop();
  }
}

export async function overview(ctx) {
  const rows = await onPglite(ctx);
  const adminUrl = postgresAdminUrl();
  if (adminUrl) rows.push(...(await onPostgres(ctx, adminUrl)));
  else ctx.log("PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to measure it)");
  return rows;
}
