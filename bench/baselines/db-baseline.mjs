// Starting the bare database server (bare-db-server.mjs) with the driver settings Vitrine's server uses, read from
// server/db/client.ts so the baseline follows when they change: PGlite's shared_buffers, the pg pool's size.
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";

// openPglite's options when bare-db-server.mjs was written to match them; a change there must be copied here.
const MATCHED_PGLITE_OPTIONS =
  '{ extensions: { pg_trgm }, startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${options.sharedBuffers ?? PGLITE_SHARED_BUFFERS_DEFAULT}`], }';

/** { sharedBuffers, poolMax, pgliteOptions } as server/db/client.ts has them now (the defaults when unreadable). */
export function serverDatabaseSettings(root, env = process.env) {
  let source = "";
  try {
    source = readFileSync(path.join(root, "server", "db", "client.ts"), "utf8");
  } catch {
    // the defaults below
  }
  const sharedBuffers = env.PGLITE_SHARED_BUFFERS || /PGLITE_SHARED_BUFFERS_DEFAULT\s*=\s*"([^"]+)"/.exec(source)?.[1] || "16MB";
  const poolMax = Number(/new pg\.Pool\(\{[\s\S]*?\bmax:\s*(\d+)/.exec(source)?.[1] ?? 10);
  // The options object openPglite passes to PGlite.create, for the log: a baseline that differs must say so.
  const pgliteOptions = /PGlite\.create\(dir, (\{[\s\S]*?\n\s*\})\);/.exec(source)?.[1]?.replace(/\s+/g, " ") ?? "unknown";
  return { sharedBuffers, poolMax, pgliteOptions };
}

/**
 * A bare server on PostgreSQL (`databaseUrl`) or on PGlite in a new data dir under ctx.tmpDir (`name`).
 * Answers the started server (lib/server.mjs): stop() it when done.
 */
export async function startBareDbServer(ctx, { databaseUrl, name }) {
  const settings = serverDatabaseSettings(ctx.root);
  const env = { ...process.env, HOST: "127.0.0.1", NODE_ENV: "production" };
  if (databaseUrl) {
    env.BARE_DATABASE_URL = databaseUrl;
    env.BARE_POOL_MAX = String(settings.poolMax);
    ctx.log(`bare node:http + pg server (pool of ${settings.poolMax})`);
  } else {
    const dataDir = path.join(ctx.tmpDir, name);
    mkdirSync(dataDir, { recursive: true });
    env.BARE_DATA_DIR = dataDir;
    env.BARE_SHARED_BUFFERS = settings.sharedBuffers;
    ctx.log(`bare node:http + PGlite server (pg_trgm, shared_buffers=${settings.sharedBuffers})`);
    if (settings.pgliteOptions !== MATCHED_PGLITE_OPTIONS) {
      ctx.log(
        `! openPglite (server/db/client.ts) now passes ${settings.pgliteOptions}: the bare PGlite server does not match it (bench/baselines/bare-db-server.mjs)`,
      );
    }
  }
  return ctx.startProcess({ script: [path.join(ctx.benchRoot, "bench", "baselines", "bare-db-server.mjs")], env });
}
