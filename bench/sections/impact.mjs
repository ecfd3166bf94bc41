// The impact preview of a schema change (POST /settings/buckets/{slug}/impact/stream) over the bench bucket with
// 10,000 and 100,000 documents, seeded with SQL, on PGlite and (when a PostgreSQL URL is given) on PostgreSQL.
// The proposed schema breaks every document (a property removed, one renamed, a lower maximum), so each one is
// grouped and the error mapping runs for all of them: the preview's worst case.
import { startOnPglite, startOnPostgres } from "../lib/bench-server.mjs";
import { postgresAdminUrl, seedDocuments, withPostgres } from "../lib/database.mjs";
import { BENCH_BUCKET } from "../lib/document.mjs";
import { sampleOtherLoad } from "../lib/machine.mjs";
import { median } from "../lib/report.mjs";

const SIZES = [10_000, 100_000];
const BUDGET_SIZE = 100_000;
const MAX_MS = 10_000;
const RUNS = 3;

/** The bench bucket's schema with maker removed, inventoryNumber renamed to inventory and year at most 1950. */
function breakingSchema() {
  const properties = { ...BENCH_BUCKET.jsonSchema.properties };
  const { inventoryNumber } = properties;
  delete properties.maker;
  delete properties.inventoryNumber;
  return {
    ...BENCH_BUCKET.jsonSchema,
    properties: { ...properties, inventory: inventoryNumber, year: { ...properties.year, maximum: 1950 } },
  };
}

/** One preview: the time to the first progress line and to the report, the server's CPU, the report. */
async function preview(server, cookie) {
  const started = performance.now();
  const cpuBefore = server.cpuMs();
  const load = sampleOtherLoad([server.child.pid]);
  const response = await fetch(`${server.url}/settings/buckets/${BENCH_BUCKET.slug}/impact/stream`, {
    method: "POST",
    // A browser sends its Origin with every post; the server refuses cookie posts from elsewhere.
    headers: { Cookie: cookie, Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ jsonSchema: JSON.stringify(breakingSchema()) }),
  });
  if (response.status !== 200) throw new Error(`the impact stream answered ${response.status}: ${await response.text()}`);
  let firstLineMs = null;
  let progressLines = 0;
  let text = "";
  for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
    firstLineMs ??= performance.now() - started;
    text += chunk;
  }
  const lines = text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  progressLines = lines.filter((line) => line.type === "progress").length;
  const last = lines.at(-1);
  if (last?.type !== "report") throw new Error(`the impact stream ended without its report: ${JSON.stringify(last)}`);
  const cpuAfter = server.cpuMs();
  return {
    ms: performance.now() - started,
    firstLineMs,
    progressLines,
    serverCpuMs: cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null,
    otherCores: load.stop(),
    report: last.report,
  };
}

async function measure(ctx, server, database, size) {
  const cookie = await ctx.signIn(server);
  const label = `impact preview, ${size.toLocaleString("en")} documents (${database})`;
  ctx.log(`${label}: ${RUNS} runs one after another`);
  const runs = [];
  for (let run = 0; run < RUNS; run++) runs.push(await preview(server, cookie));
  const { report } = runs[0];
  if (report.checked !== size || report.failing !== size) {
    throw new Error(`the report checked ${report.checked} and found ${report.failing} failing of ${size} documents`);
  }
  const ms = median(runs.map((run) => run.ms));
  const budgeted = size === BUDGET_SIZE;
  const busy = Math.max(...runs.map((run) => run.otherCores ?? 0));
  const notes = [
    `runs ${runs.map((run) => (run.ms / 1000).toFixed(1)).join(", ")} s; first progress line after ${median(runs.map((run) => run.firstLineMs)).toFixed(0)} ms; ${runs[0].progressLines} progress lines`,
    `groups: ${report.groups.map((group) => `${group.property} ${group.count}`).join(", ")}`,
  ];
  if (busy > 0.2) notes.push(`other processes kept up to ${busy.toFixed(1)} of the cores busy meanwhile`);
  return [
    {
      name: `${label}`,
      value: ms / 1000,
      unit: "s",
      budget: budgeted ? `< ${MAX_MS / 1000} s` : undefined,
      pass: budgeted ? ms < MAX_MS : null,
      note: notes.join("; "),
    },
    { name: `${label} server CPU`, value: median(runs.map((run) => run.serverCpuMs ?? NaN)) / 1000, unit: "s" },
  ];
}

async function onPglite(ctx) {
  const rows = [];
  let bench = null;
  let seeded = 0;
  try {
    for (const size of SIZES) {
      const seed = (query, bucketId) => seedDocuments(query, bucketId, { from: seeded + 1, to: size });
      const started = performance.now();
      const server = bench ? await bench.reseed(seed) : (bench = await startOnPglite(ctx, "impact-pglite", seed)).server;
      ctx.log(`PGlite: documents ${seeded + 1}–${size} seeded, server ready, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      seeded = size;
      rows.push(...(await measure(ctx, server, "PGlite", size)));
    }
  } finally {
    await bench?.stop();
  }
  return rows;
}

async function onPostgres(ctx, adminUrl) {
  const rows = [];
  const bench = await startOnPostgres(ctx, adminUrl, "impact-postgres");
  let seeded = 0;
  try {
    for (const size of SIZES) {
      await withPostgres(bench.database.url, async (query) => {
        await seedDocuments(query, bench.bucketId, { from: seeded + 1, to: size });
        await query("ANALYZE contents, versions");
      });
      seeded = size;
      rows.push(...(await measure(ctx, bench.server, "PostgreSQL", size)));
    }
  } finally {
    await bench.stop();
  }
  return rows;
}

export async function impact(ctx) {
  const rows = await onPglite(ctx);
  const adminUrl = postgresAdminUrl();
  if (adminUrl) rows.push(...(await onPostgres(ctx, adminUrl)));
  else ctx.log("PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to measure it)");
  return rows;
}
