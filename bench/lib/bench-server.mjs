// A server with the bench bucket (lib/document.mjs), on PGlite or on a fresh PostgreSQL database.
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { BENCH_BUCKET } from "./document.mjs";
import { copyDataDir, createPostgresDatabase, insertBucket, withPglite, withPostgres } from "./database.mjs";

/**
 * PGlite: a copy of the prepared data dir gets the bucket (and whatever
 * `seed(query, bucketId)` adds) before the server opens it.
 * Answers { server, bucketId, dataDir, reseed(seed), stop() }; reseed stops
 * the server, since PGlite is one process's database, and starts a new one.
 */
export async function startOnPglite(ctx, name, seed) {
  const dataDir = copyDataDir(ctx, name);
  const bucketId = await withPglite(dataDir, async (query) => {
    const id = await insertBucket(query, BENCH_BUCKET);
    if (seed) await seed(query, id);
    return id;
  });
  const bench = {
    server: await ctx.startServer({ dataDir, profileName: name }),
    bucketId,
    dataDir,
    async reseed(more) {
      await bench.server.stop();
      await withPglite(dataDir, (query) => more(query, bucketId));
      bench.server = await ctx.startServer({ dataDir, profileName: name });
      return bench.server;
    },
    async stop() {
      await bench.server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return bench;
}

/**
 * PostgreSQL: a new database that the server migrates and seeds on its first
 * start; the bucket is added while it runs (buckets are read per request).
 * Answers { server, bucketId, database, stop() }, stop() drops the database.
 */
export async function startOnPostgres(ctx, adminUrl, name) {
  const database = await createPostgresDatabase(adminUrl);
  const dataDir = path.join(ctx.tmpDir, name);
  mkdirSync(dataDir, { recursive: true });
  let server = null;
  const stop = async () => {
    await server?.stop();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    server = await ctx.startServer({ dataDir, env: { DATABASE_URL: database.url }, profileName: name });
    const bucketId = await withPostgres(database.url, (query) => insertBucket(query, BENCH_BUCKET));
    return { server, bucketId, database, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
