// npm run lint: the layering check (dependency-cruiser, .dependency-cruiser.cjs), the layout check (Prettier,
// .prettierrc.json; `npx prettier --write .` fixes what it reports), then ESLint with no warning allowed
// (eslint.config.js). All always run, at the same time (ESLint in two threads: 91 s → 76 s on two cores,
// 2026-12-06), so one report shows every finding; each check's output is printed whole when it ends, and any
// failing fails the lint.
// ESLint reads types, so React Router's generated route types (./+types/…) are made first.
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { ROOT } from "./production-build.mjs";

// npm installs the project's own dev dependencies at the top of node_modules.
const packageDir = (name) => path.join(ROOT, "node_modules", name);

const typegen = spawnSync(process.execPath, ["scripts/react-router.mjs", "typegen"], { cwd: ROOT, stdio: "inherit" });
if (typegen.status !== 0) process.exit(typegen.status ?? 1);

const checks = [
  {
    name: "layering",
    args: [
      path.join(packageDir("dependency-cruiser"), "bin/dependency-cruise.mjs"),
      "app",
      "core",
      "server",
      "workers",
      "specialised-screens",
      "--config",
      ".dependency-cruiser.cjs",
      "--output-type",
      "err",
    ],
  },
  { name: "prettier", args: [path.join(packageDir("prettier"), "bin/prettier.cjs"), "--check", "--log-level", "warn", "."] },
  {
    name: "eslint",
    args: [path.join(packageDir("eslint"), "bin/eslint.js"), "--max-warnings", "0", "--concurrency", "2", ...process.argv.slice(2)],
  },
];

/** Runs a check with its output held back, so that checks running at once do not interleave their reports. */
const run = (check) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, check.args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.on("close", (code) => {
      process.stdout.write(Buffer.concat(output));
      resolve(code === 0);
    });
  });

const passed = await Promise.all(checks.map(run));
const failed = checks.filter((_, index) => !passed[index]);
if (failed.length) {
  console.error(`Lint failed: ${failed.map((check) => check.name).join(" and ")}.`);
  process.exit(1);
}
console.log("Lint passed: layering, Prettier and ESLint.");
