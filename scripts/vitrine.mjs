// npm run vitrine -- <command>: the command-line tool (create-user, reset-password, migrate, create-invitation).
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";

const SERVER_BUILD = new URL(`../${process.env.VITRINE_BUILD_DIR ?? "build"}/server/index.js`, import.meta.url);
if (!existsSync(SERVER_BUILD)) {
  const result = spawnSync("npx", ["react-router", "build"], { stdio: ["ignore", "ignore", "inherit"] });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const { runCli } = await import(SERVER_BUILD.href);
try {
  process.exitCode = await runCli(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
