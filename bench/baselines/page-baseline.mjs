// The bare React Router page (bench/baseline-app/) built and served like ours (bare-page-server.mjs): the baseline
// of the pages, the overview and the edit page's JavaScript.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { precompress } from "../../scripts/production-build.mjs";

export const BASELINE_BUILD_DIR = "build-bench-baseline";

let builtThisRun = false;

/** `react-router build` of the baseline app into its own folder: once a run, or not at all with --skip-build. */
export function buildBaselineApp(ctx) {
  const buildDir = path.join(ctx.benchRoot, BASELINE_BUILD_DIR);
  if ((builtThisRun || ctx.skipBuild) && existsSync(path.join(buildDir, "server", "index.js"))) return buildDir;
  const started = performance.now();
  const result = spawnSync(process.execPath, [path.join(ctx.benchRoot, "scripts", "react-router.mjs"), "build"], {
    cwd: path.join(ctx.benchRoot, "bench", "baseline-app"),
    env: { ...process.env, NODE_ENV: "production", BASELINE_BUILD_DIR: buildDir },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`the baseline app's build failed:\n${result.stdout}${result.stderr}`);
  // Its assets precompressed as ours are, so that a browser is sent the same kind of bytes by both.
  precompress(path.join(buildDir, "client"));
  builtThisRun = true;
  ctx.log(`bare React Router app built into ${BASELINE_BUILD_DIR}/ in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return buildDir;
}

export async function startBarePageServer(ctx) {
  const buildDir = buildBaselineApp(ctx);
  return ctx.startProcess({
    script: [path.join(ctx.benchRoot, "bench", "baselines", "bare-page-server.mjs")],
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", BASELINE_BUILD_DIR: buildDir },
  });
}

/** Bytes of a page's HTML as sent without compression. */
export async function htmlBytes(url, headers = {}) {
  const response = await fetch(url, { headers: { ...headers, "Accept-Encoding": "identity" }, redirect: "manual" });
  const body = await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  return body.byteLength;
}

/** The bare page's URL with as many items as make its HTML weigh about `targetBytes`. */
export async function sizedPageUrl(server, targetBytes) {
  const base = await htmlBytes(`${server.url}/?items=0`);
  const withTwenty = await htmlBytes(`${server.url}/?items=20`);
  const perItem = (withTwenty - base) / 20;
  const items = Math.max(0, Math.round((targetBytes - base) / perItem));
  return { url: `${server.url}/?items=${items}`, items, bytes: await htmlBytes(`${server.url}/?items=${items}`) };
}
