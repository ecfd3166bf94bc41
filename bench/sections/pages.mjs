// Throughput and latency of server-rendered pages under a bounded local load (PGlite). The signed-in home page is
// measured right after a bare React Router page of the same HTML size (bench/baseline-app/, served the same way,
// bench/baselines/bare-page-server.mjs) with the same load settings. Compression is off for both: the load
// generator sends no Accept-Encoding.
import { htmlBytes, sizedPageUrl, startBarePageServer } from "../baselines/page-baseline.mjs";
import { baselineRun, throughputRows } from "../lib/load-rows.mjs";
import { probe } from "../lib/server.mjs";

const CONNECTIONS = 10;
const DURATION_S = 10;
const WARMUP_S = 2;
const HOME_MIN_RPS = 500;
const HOME_MAX_P99_MS = 40;
const HOME_MIN_FRACTION = 0.7;

export async function pages(ctx) {
  const server = await ctx.sharedServer();
  const load = { connections: CONNECTIONS, duration: DURATION_S, warmup: WARMUP_S };
  const rows = [];

  const loginStatus = await probe(`${server.url}/login`);
  if (loginStatus !== 200) throw new Error(`GET /login answered ${loginStatus}, expected 200`);
  rows.push(...(await throughputRows(ctx, server, { ...load, label: "GET /login", url: `${server.url}/login` })));

  const cookie = await ctx.signIn(server);
  const home = await fetch(`${server.url}/`, { headers: { Cookie: cookie }, redirect: "manual" });
  const html = await home.text();
  if (home.status !== 200 || !html.includes("bucket-card")) {
    throw new Error(
      `GET / with the session cookie answered ${home.status}${home.status === 200 ? " without the bucket list" : ""}, expected the signed-in home page`,
    );
  }
  const homeBytes = await htmlBytes(`${server.url}/`, { Cookie: cookie });

  const bare = await startBarePageServer(ctx);
  let baseline;
  try {
    const sized = await sizedPageUrl(bare, homeBytes);
    ctx.log(`our home page: ${homeBytes} bytes of HTML; the bare page with ${sized.items} cards: ${sized.bytes} bytes`);
    baseline = await baselineRun(ctx, bare, "bare page", { ...load, url: sized.url });
  } finally {
    await bare.stop();
  }
  rows.push(
    ...(await throughputRows(ctx, server, {
      ...load,
      label: "GET / (signed in)",
      url: `${server.url}/`,
      headers: { Cookie: cookie },
      minRps: HOME_MIN_RPS,
      minFraction: HOME_MIN_FRACTION,
      baseline,
      maxP99: HOME_MAX_P99_MS,
    })),
  );

  const rss = server.rss();
  rows.push({ name: "RSS after the page loads", value: rss === null ? null : rss / 2 ** 20, unit: "MiB" });
  return rows;
}
