// npm start: serves the production build, building it first when there is none.
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";

const SERVER_BUILD = new URL(`../${process.env.VITRINE_BUILD_DIR ?? "build"}/server/index.js`, import.meta.url);
if (!existsSync(SERVER_BUILD)) {
  console.log("No production build yet: building…");
  const result = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
// React and React Router pick their production code paths from NODE_ENV when first imported.
process.env.NODE_ENV ??= "production";
const { startServer } = await import(SERVER_BUILD.href);
try {
  const server = await startServer();
  console.log(`Vitrine is running: sign in at ${server.url}/login`);
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.once(signal, () => void server.close().then(() => process.exit(0)));
  }
} catch (error) {
  console.error(error instanceof Error && error.name === "ConfigError" ? error.message : error);
  process.exit(1);
}
