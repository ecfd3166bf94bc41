import { renameSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
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

/**
 * The browser's message catalogues: core/catalogues.ts imports every language; the client build takes
 * app/lib/browser-catalogues.ts instead, which fetches the page's language only (the server keeps them all).
 */
const SERVER_CATALOGUES = fileURLToPath(new URL("core/catalogues.ts", import.meta.url));
const BROWSER_CATALOGUES = fileURLToPath(new URL("app/lib/browser-catalogues.ts", import.meta.url));
const browserCatalogues: Plugin = {
  name: "vitrine-browser-catalogues",
  enforce: "pre",
  async resolveId(source, importer, options) {
    if (this.environment.name !== "client" || !importer || !/(^|\/)catalogues(\.ts)?$/.test(source)) return null;
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    return resolved?.id === SERVER_CATALOGUES ? BROWSER_CATALOGUES : resolved;
  },
};

// The server build's entry is our own HTTP server (server/app.ts), which
// imports React Router's build: one bundle, one copy of every module.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  environments: {
    client: { build: { target: "es2022" } },
    ssr: {
      // Packages of many small ES modules cost the server's start-up far more as separate files (each resolved,
      // read and compiled on its own) than bundled: zod alone is 97 files. Each group is bundled whole, so that no
      // package keeps a second copy of another (the @conform-to packages share zod's classes; react-i18next and
      // remix-i18next share i18next's instance).
      resolve: { noExternal: ["zod", /^@conform-to\//, "i18next", "react-i18next", "remix-i18next", "ajv"] },
      build: {
        // The media worker is a second entry: forked by the job runner from beside index.js.
        rollupOptions: {
          input: { index: "./server/app.ts", "media-worker": "./workers/media-worker.ts" },
          // ASCII, without JSDoc: V8 keeps every module's source for the process's life, as two bytes per character
          // when one of them is beyond Latin-1 (an arrow in a comment was enough). tests/unit/server-build.test.ts.
          output: { chunkFileNames: "chunks/[name]-[hash].js", charset: "ascii", comments: { legal: true, annotation: false, jsdoc: false } },
        },
        target: "node20",
      },
    },
  },
  plugins: [browserCatalogues, reactRouter(), namedWorkerEntry],
});
