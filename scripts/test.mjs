// npm test: the whole suite (unit, integration on PGlite and, with TEST_DATABASE_URL, PostgreSQL, and browser tests).
// Checks the system tools the suite needs, installs them from Debian when it may, lints, builds, then runs vitest.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const needed = [
  { pkg: "chromium", present: () => existsSync(CHROMIUM) },
  { pkg: "ffmpeg", present: () => spawnSync("ffmpeg", ["-version"]).status === 0 },
  // The PostgreSQL run also serves the app through PgBouncer (tests/integration/pgbouncer.test.ts).
  ...(process.env.TEST_DATABASE_URL ? [{ pkg: "pgbouncer", present: () => existsSync("/usr/sbin/pgbouncer") }] : []),
];
const missing = needed.filter((tool) => !tool.present()).map((tool) => tool.pkg);
if (missing.length) {
  const canInstall = process.getuid?.() === 0 && spawnSync("apt-get", ["--version"]).status === 0;
  if (!canInstall) {
    console.error(`The test suite needs: ${missing.join(", ")}. Install them, e.g. 'sudo apt-get install -y ${missing.join(" ")}'.`);
    process.exit(1);
  }
  console.log(`Installing ${missing.join(", ")} from Debian…`);
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
  execFileSync("apt-get", ["install", "-y", "-qq", ...missing], {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
}

const run = (args) => {
  const result = spawnSync(process.execPath, args, { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
const script = (name) => fileURLToPath(new URL(name, import.meta.url));
run([script("lint.mjs")]);
run([script("build.mjs")]);
const vitestDir = path.dirname(createRequire(import.meta.url).resolve("vitest/package.json"));
run([path.join(vitestDir, "vitest.mjs"), "run", ...process.argv.slice(2)]);
