// Loaded into a server the bench starts, with `node --import` (lib/server-probe.mjs starts it so): what the bench
// cannot see from outside the process. On SIGUSR2 it writes to $BENCH_PROBE_FILE, as JSON:
//   majorGcs    V8's full collections so far: { at (epoch ms), ms (the pause) }
//   statements  with BENCH_PROBE_PGLITE=1, the statements the server ran on PGlite, by SQL text: { [text]: times }.
//               PGlite has no socket for the counting proxy (lib/pg-proxy.mjs): every protocol message the server
//               sends it goes through PGlite.prototype.execProtocolRawSync (its query, exec, transaction and
//               listen, and the server's own prepared statements), read here with the proxy's reader.
import { renameSync, writeFileSync } from "node:fs";
import { constants, PerformanceObserver } from "node:perf_hooks";
import { messageSplitter, statementReader } from "./pg-proxy.mjs";

const file = process.env.BENCH_PROBE_FILE;

const majorGcs = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)
      majorGcs.push({ at: performance.timeOrigin + entry.startTime, ms: entry.duration });
  }
}).observe({ entryTypes: ["gc"] });

const byStatement = new Map();
if (process.env.BENCH_PROBE_PGLITE === "1") {
  const { PGlite } = await import("@electric-sql/pglite");
  const read = statementReader((text) => byStatement.set(text, (byStatement.get(text) ?? 0) + 1));
  const original = PGlite.prototype.execProtocolRawSync;
  PGlite.prototype.execProtocolRawSync = function countedExecProtocolRawSync(message) {
    // 0: a start-up message, 88 ('X'): Terminate; otherwise whole typed messages (Parse, Bind, Execute, Sync, Query…).
    if (message.length > 0 && message[0] !== 0 && message[0] !== 88) {
      messageSplitter(read)(Buffer.from(message.buffer, message.byteOffset, message.byteLength));
    }
    return original.call(this, message);
  };
}

if (file) {
  process.on("SIGUSR2", () => {
    const written = `${file}.${process.pid}.tmp`;
    writeFileSync(written, JSON.stringify({ majorGcs, statements: Object.fromEntries(byStatement) }));
    renameSync(written, file);
  });
}
