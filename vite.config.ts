import { renameSync } from "node:fs";
import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";

/** React Router names every server entry index.js (then index2.js, …): give the worker its own name. */
const namedWorkerEntry: Plugin = {
  name: "vitrine-named-worker-entry",
  writeBundle(options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type === "chunk" && chunk.isEntry && chunk.name === "media-worker" && options.dir) {
        renameSync(path.join(options.dir, chunk.fileName), path.join(options.dir, "media-worker.js"));
      }
    }
  },
};

// The server build's entry is our own HTTP server (server/app.ts), which
// imports React Router's build: one bundle, one copy of every module.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  environments: {
    client: { build: { target: "es2022" } },
    ssr: {
      build: {
        // The media worker is a second entry: forked by the job runner from beside index.js.
        rollupOptions: {
          input: { index: "./server/app.ts", "media-worker": "./workers/media-worker.ts" },
          output: { chunkFileNames: "chunks/[name]-[hash].js" },
        },
        target: "node20",
      },
    },
  },
  plugins: [reactRouter(), namedWorkerEntry],
});
