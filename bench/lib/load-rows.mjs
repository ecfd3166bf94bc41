// One autocannon run turned into report rows: throughput (with its budget), p50, p99, server CPU per request.
import { eitherBudget, formatValue } from "./report.mjs";

/** Notes shared by every measured row: failed answers and a busy machine. */
export function loadNotes(result) {
  const notes = [];
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed)
    notes.push(
      `${failed} of ${result.total} answers were not 2xx (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts})`,
    );
  if (result.otherCores !== null && result.otherCores > 0.2)
    notes.push(`other processes kept ${result.otherCores.toFixed(1)} of the cores busy meanwhile`);
  return { failed, note: notes.length ? notes.join("; ") : undefined };
}

/** The CPU row of a run: on PostgreSQL the server's and PostgreSQL's shares are shown apart too. */
export function cpuRow(label, result, baseline) {
  const split =
    result.postgresCpuMsPerRequest === null || result.postgresCpuMsPerRequest === undefined
      ? undefined
      : `node ${formatValue(result.nodeCpuMsPerRequest, "ms")} + postgres ${formatValue(result.postgresCpuMsPerRequest, "ms")}`;
  const baseSplit =
    baseline && baseline.result.postgresCpuMsPerRequest !== null && baseline.result.postgresCpuMsPerRequest !== undefined
      ? `${baseline.label}: node ${formatValue(baseline.result.nodeCpuMsPerRequest, "ms")} + postgres ${formatValue(baseline.result.postgresCpuMsPerRequest, "ms")}`
      : undefined;
  return {
    name: `${label} server CPU per request`,
    value: result.serverCpuMsPerRequest,
    unit: "ms",
    baseline: baseline ? { label: baseline.label, value: baseline.result.serverCpuMsPerRequest, as: "times" } : undefined,
    note: [split, baseSplit].filter(Boolean).join("; ") || undefined,
  };
}

/**
 * Rows of one measured run. `minRps` is the absolute throughput budget, `minFraction` the fraction of the
 * `baseline` run ({ label, result }) that also passes; `maxP99` a latency budget; `missNote` is added on a miss.
 */
export function rowsOf(label, result, { unit = "req/s", minRps, minFraction, baseline, maxP99, missNote } = {}) {
  const { failed, note } = loadNotes(result);
  const budgeted = minRps !== undefined || (minFraction !== undefined && baseline);
  const verdict = budgeted
    ? eitherBudget({
        value: result.requestsPerSecond,
        atLeast: minRps,
        baseline: baseline?.result.requestsPerSecond,
        fraction: baseline ? minFraction : undefined,
        failed,
      })
    : null;
  const budgetText = [
    minRps !== undefined ? `>= ${minRps.toLocaleString("en")} ${unit}` : null,
    minFraction !== undefined && baseline ? `>= ${Math.round(minFraction * 100)}% of ${baseline.label}` : null,
  ]
    .filter(Boolean)
    .join(" or ");
  const p99Pass = maxP99 === undefined ? null : result.p99 < maxP99 && !failed;
  return [
    {
      name: `${label} ${unit}`,
      value: result.requestsPerSecond,
      unit,
      baseline: baseline ? { label: baseline.label, value: baseline.result.requestsPerSecond } : undefined,
      budget: budgetText || undefined,
      pass: verdict ? verdict.pass : null,
      passBy: verdict?.by,
      note:
        [verdict ? `${verdict.pass ? "PASS" : "MISS"}: ${verdict.how}` : undefined, note, verdict?.pass === false ? missNote : undefined]
          .filter(Boolean)
          .join("; ") || undefined,
    },
    {
      name: `${label} p50`,
      value: result.p50,
      unit: "ms",
      baseline: baseline ? { label: baseline.label, value: baseline.result.p50, as: "times" } : undefined,
    },
    {
      name: `${label} p99`,
      value: result.p99,
      unit: "ms",
      baseline: baseline ? { label: baseline.label, value: baseline.result.p99, as: "times" } : undefined,
      budget: maxP99 === undefined ? undefined : `< ${maxP99} ms`,
      pass: p99Pass,
    },
    cpuRow(label, result, baseline),
  ];
}

/** Runs `load` (options of ctx.measureLoad) against `server` and answers rowsOf its result (see there). */
export async function throughputRows(ctx, server, { label, unit = "req/s", minRps, minFraction, baseline, maxP99, missNote, ...load }) {
  const connections = load.connections ?? 10;
  ctx.log(`${label}: ${load.warmup ?? 2} s warm-up, then ${load.duration ?? 10} s at ${connections} connection(s)`);
  const result = await ctx.measureLoad({ ...load, connections, server });
  return rowsOf(label, result, { unit, minRps, minFraction, baseline, maxP99, missNote });
}

/** A baseline's run with the same load settings: { label, result } for rowsOf. */
export async function baselineRun(ctx, server, label, load) {
  const connections = load.connections ?? 10;
  ctx.log(`${label} (baseline): ${load.warmup ?? 2} s warm-up, then ${load.duration ?? 10} s at ${connections} connection(s)`);
  const result = await ctx.measureLoad({ ...load, connections, server });
  const { failed } = loadNotes(result);
  if (failed) ctx.log(`! the baseline answered ${failed} of ${result.total} requests with something else than 2xx`);
  return { label, result };
}
