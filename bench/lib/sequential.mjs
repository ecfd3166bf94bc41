// One request after another, for answers too slow for a timed autocannon run
// (a handful of samples is all a multi-second search leaves time for).
import { median } from "./report.mjs";

/**
 * GETs `url` after one warm-up request until `count` answers or `maxMs` have
 * passed (at least one). Answers { p50, max, samples, statuses, serverCpuMsPerRequest }.
 */
export async function sampleSequential({ url, headers = {}, count = 5, maxMs = 10_000, server }) {
  await (await fetch(url, { headers })).arrayBuffer();
  const times = [];
  const statuses = new Set();
  const started = performance.now();
  const cpuBefore = server?.cpuMs() ?? null;
  while (times.length < count && (times.length === 0 || performance.now() - started < maxMs)) {
    const t0 = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    times.push(performance.now() - t0);
    statuses.add(response.status);
  }
  const cpuAfter = server?.cpuMs() ?? null;
  return {
    p50: median(times),
    max: Math.max(...times),
    samples: times.length,
    statuses: [...statuses],
    serverCpuMsPerRequest: cpuBefore !== null && cpuAfter !== null ? (cpuAfter - cpuBefore) / times.length : null,
  };
}
