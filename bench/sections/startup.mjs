// Cold start on an existing data dir, and the idle server's memory.
import { setTimeout as sleep } from "node:timers/promises";
import { median } from "../lib/report.mjs";

const RUNS = 3;
const COLD_START_BUDGET_MS = 1500;
const IDLE_SETTLE_MS = 1000;

export async function startup(ctx) {
  const readyTimes = [];
  const rssValues = [];
  for (let run = 1; run <= RUNS; run++) {
    const server = await ctx.startServer();
    readyTimes.push(server.readyMs);
    await sleep(IDLE_SETTLE_MS);
    const rss = server.rss();
    if (rss !== null) rssValues.push(rss);
    await server.stop();
    ctx.log(`run ${run}: first 200 from /healthz after ${server.readyMs.toFixed(0)} ms, idle RSS ${rss === null ? "n/a" : (rss / 2 ** 20).toFixed(1) + " MiB"}`);
  }
  const coldStart = median(readyTimes);
  return [
    {
      name: `cold start to first 200 /healthz (median of ${RUNS})`,
      value: coldStart / 1000,
      unit: "s",
      budget: `< ${COLD_START_BUDGET_MS / 1000} s`,
      pass: coldStart < COLD_START_BUDGET_MS,
      note: `runs: ${readyTimes.map((ms) => `${ms.toFixed(0)} ms`).join(", ")}`,
    },
    {
      name: `idle RSS ${IDLE_SETTLE_MS / 1000} s after start (median)`,
      value: rssValues.length ? median(rssValues) / 2 ** 20 : null,
      unit: "MiB",
    },
  ];
}
