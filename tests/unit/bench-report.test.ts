// The benchmark's budgets against in-run baselines (bench/lib/report.mjs) and its attribution of PostgreSQL's
// processes to the databases it measures (bench/lib/postgres-cpu.mjs).
import { describe, expect, it } from "vitest";
import { backendDatabase } from "../../bench/lib/postgres-cpu.mjs";
import { eitherBudget, formatRowValue, verdict } from "../../bench/lib/report.mjs";

describe("bench budgets", () => {
  it("passes on the absolute figure or on the fraction of the baseline, and says which", () => {
    expect(eitherBudget({ value: 1310, atLeast: 1200, baseline: 2260, fraction: 0.5 })).toMatchObject({ pass: true, by: "both" });
    expect(eitherBudget({ value: 1310, atLeast: 1200, baseline: 3000, fraction: 0.5 })).toMatchObject({ pass: true, by: "absolute" });
    expect(eitherBudget({ value: 300, atLeast: 1200, baseline: 500, fraction: 0.5 })).toMatchObject({ pass: true, by: "fraction" });
    expect(eitherBudget({ value: 200, atLeast: 1200, baseline: 500, fraction: 0.5 })).toMatchObject({ pass: false });
  });

  it("passes nothing when answers failed or there is no figure", () => {
    expect(eitherBudget({ value: 5000, atLeast: 1200, baseline: 500, fraction: 0.5, failed: 3 }).pass).toBe(false);
    expect(eitherBudget({ value: null, atLeast: 1200 }).pass).toBe(false);
  });

  it("prints a figure as a share of its baseline, latency and CPU as a multiple", () => {
    expect(formatRowValue({ name: "saves", value: 1310, unit: "saves/s", baseline: { label: "bare", value: 2260 } })).toBe(
      "1,310 saves/s — 58% of bare (2,260 saves/s)",
    );
    expect(formatRowValue({ name: "cpu", value: 4.12, unit: "ms", baseline: { label: "bare", value: 0.4, as: "times" } })).toBe(
      "4.12 ms — 10.3× bare (0.40 ms)",
    );
    expect(verdict({ name: "saves", value: 1, pass: true, passBy: "fraction" })).toBe("PASS (fraction)");
  });
});

describe("bench PostgreSQL CPU attribution", () => {
  it("reads a backend's database from its process title, and none from a shared process's", () => {
    expect(backendDatabase("postgres: 15/main: postgres vitrine_bench_ab12 127.0.0.1(34252) idle")).toBe("vitrine_bench_ab12");
    expect(backendDatabase("postgres: postgres test [local] SELECT")).toBe("test");
    expect(backendDatabase("postgres: 15/main: checkpointer ")).toBeNull();
    expect(backendDatabase("postgres: 15/main: walwriter ")).toBeNull();
    expect(backendDatabase("/usr/lib/postgresql/15/bin/postgres -D /var/lib/postgresql/15/main")).toBeNull();
  });
});
