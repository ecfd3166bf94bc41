// One request after another, for answers too slow for a timed autocannon run
// (a handful of samples is all a multi-second search leaves time for).
import { samplePostgresCpu } from "./postgres-cpu.mjs";
import { median } from "./report.mjs";

/**
 * GETs `url` after one warm-up request until `count` answers or `maxMs` have
 * passed (at least one). Answers { first, p50, max, samples, statuses, serverCpuMsPerRequest }; `first` is the
 * warm-up request's time (the first answer an editor would wait for).
 */
export async function sampleSequential({ url, headers = {}, count = 5, maxMs = 10_000, server }) {
  const warmupStarted = performance.now();
  await (await fetch(url, { headers })).arrayBuffer();
  const first = performance.now() - warmupStarted;
  const times = [];
  const statuses = new Set();
  const started = performance.now();
  const cpuBefore = server?.cpuMs() ?? null;
  const postgres = samplePostgresCpu(server?.postgresDatabases ?? []);
  while (times.length < count && (times.length === 0 || performance.now() - started < maxMs)) {
    const t0 = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    times.push(performance.now() - t0);
    statuses.add(response.status);
  }
  const postgresMs = postgres.stop() ?? 0;
  const cpuAfter = server?.cpuMs() ?? null;
  return {
    first,
    p50: median(times),
    max: Math.max(...times),
    samples: times.length,
    statuses: [...statuses],
    // On PostgreSQL, its processes' CPU counts too (lib/postgres-cpu.mjs).
    serverCpuMsPerRequest: cpuBefore !== null && cpuAfter !== null ? (cpuAfter - cpuBefore + postgresMs) / times.length : null,
  };
}
