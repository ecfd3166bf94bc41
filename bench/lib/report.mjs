// Rows and the printed table. A row: { name, value, unit, budget?, pass?, note? }.
// `budget` is a readable text ("< 1.5 s"); `pass` is true, false, or null/undefined (no budget).

export function formatValue(value, unit) {
  if (value === null || value === undefined || Number.isNaN(value)) return "n/a";
  if (typeof value !== "number") return `${value}${unit ? ` ${unit}` : ""}`;
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)}${unit ? ` ${unit}` : ""}`;
}

export function verdict(row) {
  if (row.pass === true) return "PASS";
  if (row.pass === false) return "MISS";
  return "-";
}

export function printRow(row) {
  const budget = row.budget ? `  (budget ${row.budget})` : "";
  const mark = row.pass === true || row.pass === false ? `  ${verdict(row)}` : "";
  console.log(`  ${row.name}: ${formatValue(row.value, row.unit)}${budget}${mark}`);
  if (row.note) console.log(`    note: ${row.note}`);
}

/** The final table: one line per row, grouped by section. */
export function printTable(results) {
  const lines = [];
  for (const { section, rows, error } of results) {
    if (error) lines.push([section, "section failed", String(error.message ?? error).split("\n")[0], "", "ERROR"]);
    for (const row of rows) lines.push([section, row.name, formatValue(row.value, row.unit), row.budget ?? "", verdict(row)]);
  }
  const header = ["Section", "Measure", "Value", "Budget", "Result"];
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i].length)));
  const format = (cells) => cells.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd();
  console.log(format(header));
  console.log(widths.map((width) => "-".repeat(width)).join("  "));
  for (const line of lines) console.log(format(line));
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
