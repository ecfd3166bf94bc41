import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// The server build's entry is our own HTTP server (server/app.ts), which
// imports React Router's build: one bundle, one copy of every module.
export default defineConfig(({ isSsrBuild }) => ({
  resolve: { tsconfigPaths: true },
  build: isSsrBuild ? { rollupOptions: { input: "./server/app.ts" }, target: "node20" } : { target: "es2022" },
  plugins: [reactRouter()],
}));
