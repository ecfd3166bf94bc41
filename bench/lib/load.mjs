// Bounded HTTP load with autocannon (in this process: the load generator shares the machine's cores).
import autocannon from "autocannon";
import { sampleOtherLoad } from "./machine.mjs";
import { samplePostgresCpu } from "./postgres-cpu.mjs";

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
  const databases = server?.postgresDatabases ?? [];
  const cpuBefore = server?.cpuMs() ?? null;
  const others = sampleOtherLoad(server ? [server.pid] : [], databases);
  const postgres = samplePostgresCpu(databases);
  const result = await run({ ...common, duration });
  const postgresMs = postgres.stop();
  const otherCores = others.stop();
  const cpuAfter = server?.cpuMs() ?? null;
  const total = result.requests.total;
  const nodeMs = cpuBefore !== null && cpuAfter !== null && total ? (cpuAfter - cpuBefore) / total : null;
  const postgresMsPerRequest = postgresMs !== null && total ? postgresMs / total : null;
  return {
    /** Cores other processes on the machine kept busy during the run (they skew the figures). */
    otherCores,
    /**
     * CPU time per answered request (ms) of the system under test: the server process, plus on PostgreSQL the
     * postgres processes working for its database. Robust on a busy machine.
     */
    serverCpuMsPerRequest: nodeMs === null ? null : nodeMs + (postgresMsPerRequest ?? 0),
    /** The server process's share (Node, and PGlite inside it). */
    nodeCpuMsPerRequest: nodeMs,
    /** PostgreSQL's share, null when the server is not on a local PostgreSQL. */
    postgresCpuMsPerRequest: postgresMsPerRequest,
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
