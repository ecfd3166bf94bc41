// Types of report.mjs's pure helpers for their unit test (tests/unit/bench-report.test.ts).
export interface Row {
  name: string;
  value: number | string | null;
  unit?: string;
  budget?: string;
  pass?: boolean | null;
  passBy?: "absolute" | "fraction" | "both";
  note?: string;
  baseline?: { label: string; value: number | null; as?: "times" };
}
export function formatValue(value: unknown, unit?: string): string;
export function fractionOf(row: Row): number | null;
export function formatRowValue(row: Row): string;
export function eitherBudget(input: {
  value: number | null;
  atLeast?: number;
  baseline?: number | null;
  fraction?: number;
  failed?: number;
}): {
  pass: boolean;
  by?: "absolute" | "fraction" | "both";
  how: string;
};
export function verdict(row: Row): string;
export function printRow(row: Row): void;
export function printComparison(before: Row[], after: Row[]): void;
export function printTable(
  results: { section: string; rows: Row[]; before?: Row[] | null; error?: unknown }[],
  compare?: { before: string },
): void;
export function median(values: number[]): number;
