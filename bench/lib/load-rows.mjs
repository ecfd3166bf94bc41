// One autocannon run turned into report rows: throughput (with its budget), p50, p99, server CPU per request.

/** Notes shared by every measured row: failed answers and a busy machine. */
export function loadNotes(result) {
  const notes = [];
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed) notes.push(`${failed} of ${result.total} answers were not 2xx (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts})`);
  if (result.otherCores !== null && result.otherCores > 0.2) notes.push(`other processes kept ${result.otherCores.toFixed(1)} of the cores busy meanwhile`);
  return { failed, note: notes.length ? notes.join("; ") : undefined };
}

/**
 * Runs `load` (options of ctx.measureLoad) and answers rows named after
 * `label`; `minRps` is the throughput budget, `missNote` is added when it is missed.
 */
export async function throughputRows(ctx, server, { label, unit = "req/s", minRps, missNote, ...load }) {
  const connections = load.connections ?? 10;
  ctx.log(`${label}: ${load.warmup ?? 2} s warm-up, then ${load.duration ?? 10} s at ${connections} connection(s)`);
  const result = await ctx.measureLoad({ ...load, connections, server });
  const { failed, note } = loadNotes(result);
  const pass = minRps === undefined ? null : result.requestsPerSecond >= minRps && !failed;
  return [
    {
      name: `${label} ${unit}`,
      value: result.requestsPerSecond,
      unit,
      budget: minRps === undefined ? undefined : `>= ${minRps} ${unit}`,
      pass,
      note: [note, pass === false ? missNote : undefined].filter(Boolean).join("; ") || undefined,
    },
    { name: `${label} p50`, value: result.p50, unit: "ms" },
    { name: `${label} p99`, value: result.p99, unit: "ms" },
    { name: `${label} server CPU per request`, value: result.serverCpuMsPerRequest, unit: "ms" },
  ];
}
