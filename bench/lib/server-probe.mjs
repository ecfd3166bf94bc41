// What a server reports from inside its process (lib/server-probe-hook.mjs): V8's full collections and, on PGlite,
// the statements it ran, as the counting proxy (lib/pg-proxy.mjs) counts them on PostgreSQL.
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";

const HOOK = fileURLToPath(new URL("./server-probe-hook.mjs", import.meta.url));

/**
 * What ctx.startServer needs for the probe ({ nodeArgs, env }; `pglite`: count its statements too), and
 * read(server): { majorGcs: [{ at, ms }], statements: { [SQL text]: times run } } since the server started.
 */
export function serverProbe(tmpDir, name, { pglite = false } = {}) {
  const file = path.join(tmpDir, `${name}-probe.json`);
  return {
    nodeArgs: [`--import=${pathToFileURL(HOOK).href}`],
    env: { BENCH_PROBE_FILE: file, ...(pglite ? { BENCH_PROBE_PGLITE: "1" } : {}) },
    async read(server) {
      rmSync(file, { force: true });
      process.kill(server.pid, "SIGUSR2");
      const deadline = performance.now() + 5000;
      while (!existsSync(file)) {
        if (performance.now() > deadline) throw new Error(`the server on port ${server.port} wrote no probe file`);
        await sleep(5);
      }
      return JSON.parse(readFileSync(file, "utf8"));
    },
  };
}

/** Statements run between two readings ({ [SQL text]: times run }), the most frequent first: [[text, times], …]. */
export function statementsBetween(before, after) {
  return Object.entries(after)
    .map(([text, times]) => [text, times - (before[text] ?? 0)])
    .filter(([, times]) => times > 0)
    .sort((a, b) => b[1] - a[1]);
}
