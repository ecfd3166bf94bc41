// Cold start on an existing, migrated data dir (PGlite) or database (PostgreSQL), and the idle server's memory.
// The baseline is the bare node:http server of the content API section (bench/baselines/bare-db-server.mjs) started
// the same way on a data dir or database it made before: Node, the same driver with the same settings, its tables.
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { startBareDbServer } from "../baselines/db-baseline.mjs";
import { createPostgresDatabase, postgresAdminUrl } from "../lib/database.mjs";
import { median } from "../lib/report.mjs";

const RUNS = 3;
const COLD_START_BUDGET_MS = { PGlite: 600, PostgreSQL: 300 };
const IDLE_RSS_BUDGET_MIB = { PGlite: 220, PostgreSQL: 80 };
const IDLE_SETTLE_MS = 1000;

/** RUNS starts of a server, each stopped after its idle RSS is read: { readyTimes, coldStart (ms), rssMiB }. */
async function starts(ctx, label, start) {
  const readyTimes = [];
  const rssValues = [];
  for (let run = 1; run <= RUNS; run++) {
    const server = await start();
    readyTimes.push(server.readyMs);
    await sleep(IDLE_SETTLE_MS);
    const rss = server.rss();
    if (rss !== null) rssValues.push(rss);
    await server.stop();
    ctx.log(
      `${label} run ${run}: first 200 from /healthz after ${server.readyMs.toFixed(0)} ms, idle RSS ${rss === null ? "n/a" : (rss / 2 ** 20).toFixed(1) + " MiB"}`,
    );
  }
  return { readyTimes, coldStart: median(readyTimes), rssMiB: rssValues.length ? median(rssValues) / 2 ** 20 : null };
}

/** The bare server's starts on a data dir or database its first start (not measured) made ready. */
async function bareStarts(ctx, database, options) {
  const first = await startBareDbServer(ctx, options);
  await first.stop();
  return starts(ctx, `bare ${database}`, () => startBareDbServer(ctx, options));
}

async function measure(ctx, database, start, bareOptions) {
  const bare = await bareStarts(ctx, database, bareOptions);
  const ours = await starts(ctx, database, start);
  const label = `bare ${database} server`;
  return [
    {
      name: `cold start to first 200 /healthz, ${database} (median of ${RUNS})`,
      value: ours.coldStart / 1000,
      unit: "s",
      baseline: { label, value: bare.coldStart / 1000, as: "times" },
      budget: `<= ${COLD_START_BUDGET_MS[database] / 1000} s`,
      pass: ours.coldStart <= COLD_START_BUDGET_MS[database],
      note: `runs: ${ours.readyTimes.map((ms) => `${ms.toFixed(0)} ms`).join(", ")}; ${label}: ${bare.readyTimes.map((ms) => `${ms.toFixed(0)} ms`).join(", ")}`,
    },
    {
      name: `idle RSS ${IDLE_SETTLE_MS / 1000} s after start, ${database} (median)`,
      value: ours.rssMiB,
      unit: "MiB",
      baseline: { label, value: bare.rssMiB, as: "times" },
      budget: `<= ${IDLE_RSS_BUDGET_MIB[database]} MiB`,
      pass: ours.rssMiB === null ? null : ours.rssMiB <= IDLE_RSS_BUDGET_MIB[database],
    },
  ];
}

export async function startup(ctx) {
  const rows = await measure(ctx, "PGlite", () => ctx.startServer({ profileName: "startup-pglite" }), { name: "startup-bare-pglite" });
  const adminUrl = postgresAdminUrl();
  if (!adminUrl) {
    ctx.log("PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to measure it)");
    return rows;
  }
  const database = await createPostgresDatabase(adminUrl);
  const dataDir = path.join(ctx.tmpDir, "startup-postgres");
  mkdirSync(dataDir, { recursive: true });
  try {
    const env = { DATABASE_URL: database.url };
    // The first start migrates and seeds the new database; the measured ones find it ready, as a restart does.
    const first = await ctx.startServer({ dataDir, env, profileName: "startup-postgres" });
    await first.stop();
    ctx.log(`PostgreSQL: fresh database ${database.name}, migrated and seeded by a first start in ${(first.readyMs / 1000).toFixed(2)} s`);
    rows.push(
      ...(await measure(ctx, "PostgreSQL", () => ctx.startServer({ dataDir, env, profileName: "startup-postgres" }), {
        databaseUrl: database.url,
      })),
    );
  } finally {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}
