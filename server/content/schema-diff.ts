/** One line of a schema diff: kept, added (only in the newer schema) or removed (only in the older). */
export interface DiffLine {
  kind: "same" | "added" | "removed";
  text: string;
}

/** A line diff of two schemas, each pretty-printed (two-space JSON), with the `diff` package's algorithm. */
export async function schemaDiff(older: unknown, newer: unknown): Promise<DiffLine[]> {
  // Loaded by the first diff shown, not by every start.
  const { diffLines } = await import("diff");
  const lines: DiffLine[] = [];
  for (const change of diffLines(JSON.stringify(older, null, 2), JSON.stringify(newer, null, 2))) {
    const kind = change.added ? "added" : change.removed ? "removed" : "same";
    const text = change.value.endsWith("\n") ? change.value.slice(0, -1) : change.value;
    for (const line of text.split("\n")) lines.push({ kind, text: line });
  }
  return lines;
}
