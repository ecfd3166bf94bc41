import { setFlagsFromString } from "node:v8";

/**
 * V8 compiles PGlite's WebAssembly (9 MB) function by function as Postgres first calls it, and recompiles the hot
 * ones with its optimising compiler on background threads: by default as many at once as its thread pool has
 * threads. While the database starts, those compilations compete with the main thread for the cores, and each
 * thread's compiler memory stays resident afterwards (its own malloc arena). One at a time: less CPU and about
 * 25 MiB less resident memory after the start, and the same CPU per query once the hot functions are compiled
 * (docs/benchmarks.md, "Start-up on PGlite").
 */
export const WASM_COMPILATION_TASKS_FLAG = "--wasm-num-compilation-tasks=1";

let applied = false;

/**
 * Sets WASM_COMPILATION_TASKS_FLAG for this process, before PGlite's module is compiled (V8 reads it when a
 * compilation starts), unless node was started with its own `--wasm-num-compilation-tasks`. Answers whether it set it.
 */
export function limitWasmCompilationTasks(
  process_: { execArgv: readonly string[]; env: NodeJS.ProcessEnv } = process,
  setFlags: (flags: string) => void = setFlagsFromString,
): boolean {
  if (applied) return false;
  applied = true;
  const chosen = [...process_.execArgv, ...(process_.env.NODE_OPTIONS ?? "").split(/\s+/)].some((arg) =>
    /^--wasm[-_]num[-_]compilation[-_]tasks\b/.test(arg),
  );
  if (chosen) return false;
  setFlags(WASM_COMPILATION_TASKS_FLAG);
  return true;
}

/** Tests only: lets limitWasmCompilationTasks decide again. */
export function resetWasmCompilationTasksForTests(): void {
  applied = false;
}
