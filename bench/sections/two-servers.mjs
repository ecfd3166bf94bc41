// Two servers on one PostgreSQL database against one, in the same run: the same load (connections, duration) on
// saves and on delivery reads, sent to one server, then split round-robin over two. On this 2-core machine the two
// share the cores with PostgreSQL and the load generator: the claim measured is that adding a server costs nothing
// (no lock, cache or claim that the servers fight over), not that it doubles anything.
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { createPostgresDatabase, insertBucket, postgresAdminUrl, withPostgres } from "../lib/database.mjs";
import { BENCH_BUCKET, benchDocument } from "../lib/document.mjs";
import { loadNotes } from "../lib/load-rows.mjs";
import { ENV, seed, WORKS_BUCKET } from "./delivery.mjs";

const CONNECTIONS = 10;
const DURATION_S = 8;
const WARMUP_S = 2;
/** Run-to-run noise of this machine: two servers within it of one count as not slower. */
const TOLERANCE = 0.05;

export async function twoServers(ctx) {
  const adminUrl = postgresAdminUrl();
  if (!adminUrl) {
    ctx.log("skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL to measure two servers on PostgreSQL");
    return [];
  }
  const database = await createPostgresDatabase(adminUrl);
  const dirs = ["a", "b"].map((name) => path.join(ctx.tmpDir, `two-servers-${name}`));
  for (const dir of dirs) mkdirSync(dir, { recursive: true });
  const env = { ...ENV, DATABASE_URL: database.url };
  const servers = [];
  try {
    // The first migrates and seeds; the second starts on the database as it is.
    servers.push(await ctx.startServer({ dataDir: dirs[0], env, profileName: "two-servers-a" }));
    const seeded = await withPostgres(database.url, async (query) => {
      await insertBucket(query, BENCH_BUCKET);
      return seed(query);
    });
    servers.push(await ctx.startServer({ dataDir: dirs[1], env, profileName: "two-servers-b" }));
    ctx.log(`PostgreSQL: fresh database ${database.name}; servers on ${servers.map((server) => server.url).join(" and ")}`);

    const cookie = await ctx.signIn(servers[0]);
    const saveHeaders = { "Content-Type": "application/json", Cookie: cookie };
    const body = JSON.stringify({ content: benchDocument(1), collection: BENCH_BUCKET.collectionName });
    const saveUrl = (server) => `${server.url}/api/v1/buckets/${BENCH_BUCKET.slug}/save`;
    const readUrl = (server) => `${server.url}/api/v1/delivery/buckets/${WORKS_BUCKET.slug}/documents/${seeded.work}?locale=en`;
    // Each by hand on each server first: the session and the token hold on both.
    for (const server of servers) {
      const saved = await fetch(saveUrl(server), { method: "POST", headers: { ...saveHeaders, Origin: server.url }, body });
      if (saved.status !== 201) throw new Error(`a save on ${server.url} answered ${saved.status}`);
      const read = await fetch(readUrl(server), { headers: { Authorization: `Bearer ${seeded.token}` } });
      if (read.status !== 200) throw new Error(`a delivery read on ${server.url} answered ${read.status}`);
    }

    const load = { connections: CONNECTIONS, duration: DURATION_S, warmup: WARMUP_S };
    const compare = async (label, unit, request) => {
      ctx.log(`${label}: ${WARMUP_S} s warm-up, then ${DURATION_S} s at ${CONNECTIONS} connections, on one server, then on two`);
      const one = await ctx.measureLoad({ ...load, ...request([servers[0]]) });
      const two = await ctx.measureLoad({ ...load, ...request(servers) });
      const failed = loadNotes(one).failed + loadNotes(two).failed;
      const notes = [loadNotes(one).note, loadNotes(two).note].filter(Boolean);
      return {
        name: `${label}, two servers`,
        value: two.requestsPerSecond,
        unit,
        baseline: { label: "one server", value: one.requestsPerSecond },
        budget: `not slower than one server (within ${TOLERANCE * 100}%)`,
        pass: !failed && two.requestsPerSecond >= (1 - TOLERANCE) * one.requestsPerSecond,
        note: [`p99 ${one.p99} → ${two.p99} ms`, ...notes].join("; "),
      };
    };
    // A save carries its origin: with two servers autocannon sends the same headers to both, so the origin check
    // is met through Sec-Fetch-Site, as a browser on the page sends it.
    const saves = await compare("save a new document (PostgreSQL)", "saves/s", (targets) => ({
      url: targets.map(saveUrl),
      method: "POST",
      headers: { ...saveHeaders, "Sec-Fetch-Site": "same-origin" },
      body,
    }));
    const reads = await compare("delivery: one document (PostgreSQL)", "req/s", (targets) => ({
      url: targets.map(readUrl),
      headers: { Authorization: `Bearer ${seeded.token}` },
    }));
    return [saves, reads];
  } finally {
    for (const server of servers) await server.stop();
    await database.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
