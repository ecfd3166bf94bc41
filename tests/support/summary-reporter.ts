import type { Reporter, TestModule } from "vitest/node";

/** How many of the slowest files the summary names: where a CI run's minutes went (docs/testing.md). */
const SLOWEST = 12;

/** Ends the run with the slowest files, then the plain line CI reads: 'N passed, N failed, N skipped'. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
      if (module.state() === "failed" && ![...module.children.allTests()].some((t) => t.result().state === "failed")) failed++;
    }
    const slowest = [...testModules]
      .map((module) => ({ name: `${module.project.name} ${module.relativeModuleId}`, seconds: module.diagnostic().duration / 1000 }))
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, SLOWEST);
    if (slowest.length > 1)
      console.log(`\nSlowest files:\n${slowest.map((file) => `  ${file.seconds.toFixed(0).padStart(5)} s  ${file.name}`).join("\n")}`);
    console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}
