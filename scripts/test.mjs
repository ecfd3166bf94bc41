// npm test: the whole suite (unit, integration on PGlite and, with TEST_DATABASE_URL, PostgreSQL, and browser tests).
// Checks the system tools the suite needs, installs them from Debian when it may, builds, then runs vitest.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const needed = [
  { pkg: "chromium", present: () => existsSync(CHROMIUM) },
  { pkg: "ffmpeg", present: () => spawnSync("ffmpeg", ["-version"]).status === 0 },
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
  execFileSync("apt-get", ["install", "-y", "-qq", ...missing], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
}

const run = (command, args) => {
  const result = spawnSync(command, args, { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
run("npx", ["react-router", "build"]);
run("npx", ["vitest", "run", ...process.argv.slice(2)]);
