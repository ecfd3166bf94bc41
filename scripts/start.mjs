// npm start: serves the production build, building it first when there is none or the sources changed since.
//   node scripts/start.mjs --no-build    serve the build as it is (the benchmark builds its own)
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildDirectory, buildProduction, buildStatus } from "./production-build.mjs";
import { printAfterLogs, readyMessage } from "./ready-message.mjs";

const buildDir = buildDirectory();
const serverEntry = path.join(buildDir, "server", "index.js");

if (process.argv.includes("--no-build")) {
  if (!existsSync(serverEntry)) fail(`There is no production build in ${buildDir}: run npm run build.`);
} else {
  const status = buildStatus(buildDir);
  if (!status.current) {
    console.log(`Building Vitrine (${status.reason})…`);
    const result = buildProduction(buildDir);
    if (!result.ok) fail(`${result.output.trimEnd()}\n\n${result.summary}`);
    console.log(result.summary);
  }
}

// React and React Router pick their production code paths from NODE_ENV when first imported.
process.env.NODE_ENV ??= "production";
const { startServer, tuneHeapForMemory } = await import(pathToFileURL(serverEntry).href);
tuneHeapForMemory(); // a process-wide V8 setting: the server's own process only (server/heap-tuning.ts)
const DEMO_MEDIA_DEADLINE_MS = 60_000;
let server;
try {
  server = await startServer();
} catch (error) {
  fail(error instanceof Error && ["ConfigError", "DataDirInUseError"].includes(error.name) ? error.message : error);
}
// A stop finishes the requests in flight first (server/app.ts close(), docs/operations.md); a second signal does not wait.
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    server.logger.info({ signal }, "stopping");
    void server.close().then(
      () => process.exit(0),
      (error) => {
        server.logger.error({ err: error }, "stopping failed");
        process.exit(1);
      },
    );
  });
}
// A first start's demo videos are transcoded now: their logs come before the sign-in block, not after it.
await server.demoMediaSettled(DEMO_MEDIA_DEADLINE_MS);
printAfterLogs(server.logger, readyMessage({ url: server.url, seeded: server.seeded }));

function fail(message) {
  console.error(message);
  process.exit(1);
}
