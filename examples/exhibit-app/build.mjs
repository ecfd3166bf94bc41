#!/usr/bin/env node
// Compiles src/app.ts into dist/app.js (TypeScript's transpiler: types are erased, nothing is bundled; the page
// loads dist/app.js as an ES module). `npm run typecheck` checks src/ with the project's tsconfig.
//
//   node examples/exhibit-app/build.mjs
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export function buildExhibitApp() {
  const source = readFileSync(fileURLToPath(new URL("./src/app.ts", import.meta.url)), "utf8");
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022, verbatimModuleSyntax: true },
    fileName: "app.ts",
  });
  const out = fileURLToPath(new URL("./dist/app.js", import.meta.url));
  mkdirSync(fileURLToPath(new URL("./dist/", import.meta.url)), { recursive: true });
  writeFileSync(out, outputText);
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) console.log(`Wrote ${buildExhibitApp()}`);
