import { afterEach, describe, expect, it } from "vitest";
import { holdEventLoop } from "@server/event-loop-hold";
import { limitWasmCompilationTasks, resetWasmCompilationTasksForTests, WASM_COMPILATION_TASKS_FLAG } from "@server/db/wasm-compilation";

const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;

describe("holdEventLoop", () => {
  it("keeps a referenced handle in the event loop until released", () => {
    const before = timers();
    const release = holdEventLoop();
    expect(timers()).toBe(before + 1);
    release();
    expect(timers()).toBe(before);
  });
});

describe("limitWasmCompilationTasks", () => {
  afterEach(() => resetWasmCompilationTasksForTests());

  it("sets V8's flag once per process", () => {
    const set: string[] = [];
    const process_ = { execArgv: [], env: {} };
    expect(limitWasmCompilationTasks(process_, (flags) => set.push(flags))).toBe(true);
    expect(limitWasmCompilationTasks(process_, (flags) => set.push(flags))).toBe(false);
    expect(set).toEqual([WASM_COMPILATION_TASKS_FLAG]);
  });

  it("leaves an operator's own choice, on node's command line or in NODE_OPTIONS, alone", () => {
    const set: string[] = [];
    expect(limitWasmCompilationTasks({ execArgv: ["--wasm-num-compilation-tasks=4"], env: {} }, (flags) => set.push(flags))).toBe(false);
    resetWasmCompilationTasksForTests();
    expect(
      limitWasmCompilationTasks(
        { execArgv: [], env: { NODE_OPTIONS: "--max-old-space-size=512 --wasm_num_compilation_tasks=2" } },
        (flags) => set.push(flags),
      ),
    ).toBe(false);
    expect(set).toEqual([]);
  });
});
