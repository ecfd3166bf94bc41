// Cold start on an existing, migrated data dir (PGlite) or database (PostgreSQL), and the idle server's memory.
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createPostgresDatabase, postgresAdminUrl } from "../lib/database.mjs";
import { median } from "../lib/report.mjs";

const RUNS = 3;
const COLD_START_BUDGET_MS = { PGlite: 600, PostgreSQL: 300 };
const IDLE_RSS_BUDGET_MIB = { PGlite: 220, PostgreSQL: 80 };
const IDLE_SETTLE_MS = 1000;

async function measure(ctx, database, start) {
  const readyTimes = [];
  const rssValues = [];
  for (let run = 1; run <= RUNS; run++) {
    const server = await start();
    readyTimes.push(server.readyMs);
    await sleep(IDLE_SETTLE_MS);
    const rss = server.rss();
    if (rss !== null) rssValues.push(rss);
    await server.stop();
    ctx.log(`${database} run ${run}: first 200 from /healthz after ${server.readyMs.toFixed(0)} ms, idle RSS ${rss === null ? "n/a" : (rss / 2 ** 20).toFixed(1) + " MiB"}`);
  }
  const coldStart = median(readyTimes);
  const rssMiB = rssValues.length ? median(rssValues) / 2 ** 20 : null;
  return [
    {
      name: `cold start to first 200 /healthz, ${database} (median of ${RUNS})`,
      value: coldStart / 1000,
      unit: "s",
      budget: `<= ${COLD_START_BUDGET_MS[database] / 1000} s`,
      pass: coldStart <= COLD_START_BUDGET_MS[database],
      note: `runs: ${readyTimes.map((ms) => `${ms.toFixed(0)} ms`).join(", ")}`,
    },
    {
      name: `idle RSS ${IDLE_SETTLE_MS / 1000} s after start, ${database} (median)`,
      value: rssMiB,
      unit: "MiB",
      budget: `<= ${IDLE_RSS_BUDGET_MIB[database]} MiB`,
      pass: rssMiB === null ? null : rssMiB <= IDLE_RSS_BUDGET_MIB[database],
    },
  ];
}

export async function startup(ctx) {
  const rows = await measure(ctx, "PGlite", () => ctx.startServer({ profileName: "startup-pglite" }));
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
    rows.push(...(await measure(ctx, "PostgreSQL", () => ctx.startServer({ dataDir, env, profileName: "startup-postgres" }))));
  } finally {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}
