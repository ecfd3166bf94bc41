import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { WASM_COMPILATION_TASKS_FLAG } from "@server/db/wasm-compilation";

/*
 * What the server's start leans on in node and V8 while PGlite's WebAssembly compiles (docs/benchmarks.md, "Library
 * internals we replace or lean on"), each in a node process of its own compiling PGlite's module: an upgrade of node
 * that changes either fails here.
 */

const PGLITE_WASM = path.join(path.dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite")), "pglite.wasm");

function runNode(script: string, args: string[]): Record<string, number> {
  const output = execFileSync(process.execPath, ["-e", script, "--", ...args], { encoding: "utf8", env: { PATH: process.env.PATH } });
  return JSON.parse(output.trim()) as Record<string, number>;
}

/**
 * Compiles the module eagerly (every function, as V8 does for the hot ones in the background) after setting `flags`
 * at run time, as the server does: how many of V8's worker threads took part (at least 20 ms of CPU each).
 */
const COMPILING_THREADS = `
const v8 = require("node:v8");
const fs = require("node:fs");
const [flags, wasm] = process.argv.slice(1);
for (const flag of JSON.parse(flags)) v8.setFlagsFromString(flag);
const ticks = () => new Map(fs.readdirSync("/proc/self/task").map((thread) => {
  const fields = fs.readFileSync("/proc/self/task/" + thread + "/stat", "utf8").split(") ")[1].split(" ");
  return [thread, Number(fields[11]) + Number(fields[12])];
}));
const bytes = fs.readFileSync(wasm);
const before = ticks();
new WebAssembly.Module(bytes);
const workers = [...ticks()].filter(([thread, after]) => thread !== String(process.pid) && after - (before.get(thread) ?? 0) >= 2);
console.log(JSON.stringify({ workers: workers.length }));
`;

describe("server/db/wasm-compilation.ts: V8's flag set at run time", () => {
  it("still limits WebAssembly compilation to one task", () => {
    const lazyOff = "--no-wasm-lazy-compilation";
    // Measured on Node 20 (2 cores): 4 worker threads compile without the flag, none with it (the main thread does).
    expect(runNode(COMPILING_THREADS, [JSON.stringify([lazyOff]), PGLITE_WASM]).workers).toBeGreaterThanOrEqual(2);
    expect(runNode(COMPILING_THREADS, [JSON.stringify([lazyOff, WASM_COMPILATION_TASKS_FLAG]), PGLITE_WASM]).workers).toBeLessThanOrEqual(
      1,
    );
  }, 60_000);
});

/** holdEventLoop from server/event-loop-hold.ts, as node runs it. */
const holdEventLoopSource = ts.transpileModule(readFileSync(path.resolve("server/event-loop-hold.ts"), "utf8"), {
  compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
}).outputText;

/**
 * Compiles the module in the background (WebAssembly.compile) with nothing else referenced in the event loop, held
 * or not by holdEventLoop: how often an unreferenced 5 ms timer fired meanwhile (the loop serving anything at all).
 */
const LOOP_WHILE_COMPILING = `
const exports = {};
${holdEventLoopSource}
const v8 = require("node:v8");
const fs = require("node:fs");
const [mode, wasm] = process.argv.slice(1);
v8.setFlagsFromString("--no-wasm-lazy-compilation");
const bytes = fs.readFileSync(wasm);
const release = mode === "held" ? exports.holdEventLoop() : () => undefined;
let fired = 0;
setInterval(() => (fired += 1), 5).unref();
WebAssembly.compile(bytes).then(() => {
  release();
  console.log(JSON.stringify({ fired }));
});
`;

describe("server/event-loop-hold.ts: node's event loop while V8 works in the background", () => {
  it("is not served while nothing referenced is in it, and is with holdEventLoop", () => {
    // Node leaves the loop and waits for V8's background tasks (NodePlatform::DrainTasks): the premise. Measured on
    // Node 20: 0 firings alone, 57-82 held, over a compilation of 1.1-1.2 s.
    expect(runNode(LOOP_WHILE_COMPILING, ["alone", PGLITE_WASM]).fired).toBeLessThanOrEqual(1);
    expect(runNode(LOOP_WHILE_COMPILING, ["held", PGLITE_WASM]).fired).toBeGreaterThanOrEqual(10);
  }, 60_000);
});
