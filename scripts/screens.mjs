// npm run screens: a screenshot of every screen and dialog (tests/support/screen-tour.ts), English and Dutch, 1280 and
// 390 px wide, into screens/ (or SCREENS_DIR), with what the visual and accessibility checks find (findings.txt).
// Builds first when the build is missing or older than the sources; serves it on a temporary database seeded with the
// demo content; Chromium from /usr/bin/chromium (CHROMIUM_PATH), as the test suite.
//   SCREENS_ONLY=dialog npm run screens     only the tour entries whose name matches
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildDirectory, buildProduction, buildStatus } from "./production-build.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(CHROMIUM)) {
  console.error(`npm run screens needs Chromium at ${CHROMIUM} (e.g. 'sudo apt-get install -y chromium', or set CHROMIUM_PATH).`);
  process.exit(1);
}

if (spawnSync("ffmpeg", ["-version"]).status !== 0) {
  console.warn("ffmpeg is not installed: the screens with a video (the media dialogs) will be missing ('sudo apt-get install -y ffmpeg').");
}

const buildDir = buildDirectory();
const status = buildStatus(buildDir);
if (!status.current) {
  console.log(`Building Vitrine (${status.reason})…`);
  const result = buildProduction(buildDir);
  if (!result.ok) {
    console.error(`${result.output.trimEnd()}\n\n${result.summary}`);
    process.exit(1);
  }
  console.log(result.summary);
}

const out = path.resolve(ROOT, process.env.SCREENS_DIR ?? "screens");
const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs");
const result = spawnSync(process.execPath, [vitest, "run", "--config", path.join(ROOT, "tests/screens/vitest.config.ts")], {
  cwd: ROOT,
  stdio: "inherit",
  env: { ...process.env, SCREENS_DIR: out, VITRINE_BUILD_DIR: path.relative(ROOT, buildDir) || "." },
});
const pictures = existsSync(out) ? readdirSync(out).filter((name) => name.endsWith(".png")).length : 0;
console.log(
  `\n${pictures} screenshots in ${out}${existsSync(path.join(out, "findings.txt")) ? ` (checks: ${path.join(out, "findings.txt")})` : ""}`,
);
process.exit(result.status ?? 1);
