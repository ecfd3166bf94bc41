// Rows and the printed table. A row: { name, value, unit, budget?, pass?, note?, baseline? }.
// `budget` is a readable text ("< 1.5 s"); `pass` is true, false, or null/undefined (no budget).
// `baseline` ({ label, value, as? }) is the same measure of an in-run baseline: the row shows its value as a
// fraction of it ("1,310 saves/s — 58% of bare (2,260 saves/s)"), or with `as: "times"` as a multiple of it
// ("4.1 ms — 10.3× bare (0.40 ms)").

export function formatValue(value, unit) {
  if (value === null || value === undefined || Number.isNaN(value)) return "n/a";
  if (typeof value !== "number") return `${value}${unit ? ` ${unit}` : ""}`;
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  const text = Math.abs(value) >= 1000 ? Math.round(value).toLocaleString("en") : value.toFixed(digits);
  return `${text}${unit ? ` ${unit}` : ""}`;
}

/** Our value as a fraction of the baseline's (0.58), or null when either is unknown. */
export function fractionOf(row) {
  const base = row.baseline?.value;
  if (typeof row.value !== "number" || typeof base !== "number" || !(base > 0)) return null;
  return row.value / base;
}

/** The value, and with a baseline the fraction of it: "1,310 saves/s — 58% of bare (2,260 saves/s)". */
export function formatRowValue(row) {
  const value = formatValue(row.value, row.unit);
  if (!row.baseline) return value;
  const fraction = fractionOf(row);
  const base = formatValue(row.baseline.value, row.unit);
  // Throughput reads as a share of the baseline's; latency and CPU as a multiple of it.
  if (row.baseline.as === "times")
    return `${value} — ${fraction === null ? "n/a" : `${fraction.toFixed(1)}×`} ${row.baseline.label} (${base})`;
  return `${value} — ${fraction === null ? "n/a" : `${Math.round(fraction * 100)}%`} of ${row.baseline.label} (${base})`;
}

/**
 * A budget that holds as an absolute figure on a quiet machine or as a fraction of an in-run baseline on any
 * machine: { pass, how } where how says which held ("absolute", "fraction", "both", or what missed).
 * `atLeast`: the absolute minimum; `fraction`: the minimum fraction of `baseline`; `failed`: answers that were not
 * as expected (a run with failures passes nothing).
 */
export function eitherBudget({ value, atLeast, baseline, fraction, failed = 0 }) {
  if (value === null || value === undefined || failed) return { pass: false, how: failed ? "failed answers" : "no figure" };
  const absolute = atLeast !== undefined && value >= atLeast;
  const relative = fraction !== undefined && typeof baseline === "number" && baseline > 0 && value / baseline >= fraction;
  if (absolute && relative) return { pass: true, by: "both", how: "absolute and fraction both hold" };
  if (absolute) return { pass: true, by: "absolute", how: "the absolute budget holds" };
  if (relative) return { pass: true, by: "fraction", how: "the fraction of the baseline holds" };
  return { pass: false, how: "neither the absolute nor the fraction budget holds" };
}

export function verdict(row) {
  // `passBy`: which of an absolute-or-fraction budget held (eitherBudget).
  if (row.pass === true) return row.passBy ? `PASS (${row.passBy})` : "PASS";
  if (row.pass === false) return "MISS";
  return "-";
}

export function printRow(row) {
  const budget = row.budget ? `  (budget ${row.budget})` : "";
  const mark = row.pass === true || row.pass === false ? `  ${verdict(row)}` : "";
  console.log(`  ${row.name}: ${formatRowValue(row)}${budget}${mark}`);
  if (row.note) console.log(`    note: ${row.note}`);
}

/** With --compare: each row of the after build next to the same row of the before build. */
export function printComparison(before, after) {
  const earlier = new Map(before.map((row) => [row.name, row]));
  console.log("  -- before → after --");
  for (const row of after) {
    const old = earlier.get(row.name);
    console.log(
      `  ${row.name}: ${old ? formatRowValue(old) : "n/a"} → ${formatRowValue(row)}${row.pass === true || row.pass === false ? `  ${verdict(row)}` : ""}`,
    );
  }
}

/** The final table: one line per row, grouped by section; with `compare` ({ before: rev }) a column for it. */
export function printTable(results, compare) {
  const lines = [];
  for (const { section, rows, before, error } of results) {
    const earlier = new Map((before ?? []).map((row) => [row.name, row]));
    if (error)
      lines.push([section, "section failed", ...(compare ? [""] : []), String(error.message ?? error).split("\n")[0], "", "ERROR"]);
    for (const row of rows) {
      const old = earlier.get(row.name);
      lines.push([
        section,
        row.name,
        ...(compare ? [old ? formatRowValue(old) : "n/a"] : []),
        formatRowValue(row),
        row.budget ?? "",
        verdict(row),
      ]);
    }
  }
  const header = ["Section", "Measure", ...(compare ? [`Before (${compare.before})`, "After"] : ["Value"]), "Budget", "Result"];
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i].length)));
  const format = (cells) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  console.log(format(header));
  console.log(widths.map((width) => "-".repeat(width)).join("  "));
  for (const line of lines) console.log(format(line));
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
