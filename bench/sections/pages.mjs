// Throughput and latency of server-rendered pages under a bounded local load.
import { probe } from "../lib/server.mjs";

const CONNECTIONS = 10;
const DURATION_S = 10;
const WARMUP_S = 2;
const HOME_MIN_RPS = 250;
const HOME_MAX_P99_MS = 100;

async function loadRows(ctx, server, label, url, headers, budgets = {}) {
  ctx.log(`${label}: ${WARMUP_S} s warm-up, then ${DURATION_S} s at ${CONNECTIONS} connections`);
  const result = await ctx.measureLoad({ url, headers, connections: CONNECTIONS, duration: DURATION_S, warmup: WARMUP_S, server });
  const failed = result.non2xx + result.errors + result.timeouts;
  const notes = [];
  if (failed) notes.push(`${failed} of ${result.total} answers were not 2xx (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts})`);
  if (result.otherCores !== null && result.otherCores > 0.2) notes.push(`other processes kept ${result.otherCores.toFixed(1)} of the cores busy meanwhile`);
  const note = notes.length ? notes.join("; ") : undefined;
  const rpsPass = budgets.minRps === undefined ? null : result.requestsPerSecond >= budgets.minRps && !failed;
  const p99Pass = budgets.maxP99 === undefined ? null : result.p99 < budgets.maxP99 && !failed;
  return [
    {
      name: `${label} requests/s`,
      value: result.requestsPerSecond,
      unit: "req/s",
      budget: budgets.minRps === undefined ? undefined : `>= ${budgets.minRps} req/s`,
      pass: rpsPass,
      note,
    },
    { name: `${label} p50`, value: result.p50, unit: "ms" },
    {
      name: `${label} p99`,
      value: result.p99,
      unit: "ms",
      budget: budgets.maxP99 === undefined ? undefined : `< ${budgets.maxP99} ms`,
      pass: p99Pass,
    },
    { name: `${label} server CPU per request`, value: result.serverCpuMsPerRequest, unit: "ms" },
  ];
}

export async function pages(ctx) {
  const server = await ctx.sharedServer();
  const rows = [];

  const loginStatus = await probe(`${server.url}/login`);
  if (loginStatus !== 200) throw new Error(`GET /login answered ${loginStatus}, expected 200`);
  rows.push(...(await loadRows(ctx, server, "GET /login", `${server.url}/login`, {})));

  const cookie = await ctx.signIn(server);
  const home = await fetch(`${server.url}/`, { headers: { Cookie: cookie }, redirect: "manual" });
  const html = await home.text();
  if (home.status !== 200 || !html.includes("bucket-card")) {
    throw new Error(`GET / with the session cookie answered ${home.status}${home.status === 200 ? " without the bucket list" : ""}, expected the signed-in home page`);
  }
  rows.push(
    ...(await loadRows(ctx, server, "GET / (signed in)", `${server.url}/`, { Cookie: cookie }, { minRps: HOME_MIN_RPS, maxP99: HOME_MAX_P99_MS })),
  );

  const rss = server.rss();
  rows.push({ name: "RSS after the page loads", value: rss === null ? null : rss / 2 ** 20, unit: "MiB" });
  return rows;
}
