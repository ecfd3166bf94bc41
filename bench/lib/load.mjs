// Bounded HTTP load with autocannon (in this process: the load generator shares the machine's cores).
import autocannon from "autocannon";
import { sampleOtherLoad } from "./machine.mjs";

function run(options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/**
 * A short warm-up, then the measured run. Returns requests/s, latency
 * percentiles in ms, everything that was not a 2xx answer, and (given the
 * server from startServer) the server's CPU time per request.
 */
export async function measureLoad({ url, headers = {}, method = "GET", body, connections = 10, duration = 10, warmup = 2, server }) {
  const common = { url, method, headers, body, connections, pipelining: 1, timeout: 10 };
  if (warmup > 0) await run({ ...common, duration: warmup });
  const cpuBefore = server?.cpuMs() ?? null;
  const others = sampleOtherLoad(server ? [server.pid] : []);
  const result = await run({ ...common, duration });
  const otherCores = others.stop();
  const cpuAfter = server?.cpuMs() ?? null;
  return {
    /** Cores other processes on the machine kept busy during the run (they skew the figures). */
    otherCores,
    /** The server process's CPU time per answered request (ms): robust on a busy machine. */
    serverCpuMsPerRequest: cpuBefore !== null && cpuAfter !== null && result.requests.total ? (cpuAfter - cpuBefore) / result.requests.total : null,
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    seconds: result.duration,
  };
}
