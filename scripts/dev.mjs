// npm run dev: the same server with Vite's dev middleware and hot reload.
import { createServer } from "vite";

const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
const { startServer } = await vite.ssrLoadModule("./server/app.ts");
const server = await startServer({
  mode: "development",
  clientDir: null,
  devMiddleware: vite.middlewares,
  build: () => vite.ssrLoadModule("virtual:react-router/server-build"),
});
console.log(`Vitrine (development) at ${server.url}`);
