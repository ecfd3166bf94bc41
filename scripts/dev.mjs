// npm run dev: the same server with Vite's dev middleware and hot reload.
import { createServer } from "vite";
import { silenceKnownWarnings } from "./known-warnings.mjs";
import { printAfterLogs, readyMessage } from "./ready-message.mjs";

silenceKnownWarnings();
const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
const { startServer } = await vite.ssrLoadModule("./server/app.ts");
const server = await startServer({
  mode: "development",
  clientDir: null,
  devMiddleware: vite.middlewares,
  build: () => vite.ssrLoadModule("virtual:react-router/server-build"),
});
printAfterLogs(server.logger, readyMessage({ url: server.url, seeded: server.seeded, title: "Vitrine (development) is running" }));
