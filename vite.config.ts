import { readFileSync, renameSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";
import { reactRouterProductionInBrowser } from "./scripts/vite-react-router-production.ts";

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
 * Modules the browser build takes another file for. The message catalogues: core/catalogues.ts imports every
 * language, app/lib/browser-catalogues.ts fetches the page's language only. The field kinds most forms do not use:
 * the server imports them all, the browser fetches each kind's code when a form first renders it.
 */
const fromRoot = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const BROWSER_VARIANTS = new Map([
  [fromRoot("core/catalogues.ts"), fromRoot("app/lib/browser-catalogues.ts")],
  [fromRoot("app/components/form/on-demand-fields.tsx"), fromRoot("app/components/form/on-demand-fields.browser.tsx")],
]);
const VARIANT_SOURCE = /(^|\/)(catalogues|on-demand-fields)(\.tsx?)?$/;
const browserVariants: Plugin = {
  name: "vitrine-browser-variants",
  enforce: "pre",
  async resolveId(source, importer, options) {
    if (this.environment.name !== "client" || !importer || !VARIANT_SOURCE.test(source)) return null;
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    const variant = resolved && BROWSER_VARIANTS.get(resolved.id);
    return variant ?? resolved;
  },
};

/**
 * virtual:vitrine/on-demand-chunks: for each on-demand field kind, the client build's chunk holding the module
 * on-demand-fields.browser.tsx imports for it, and the chunks that one imports, so that the server can have a page
 * preload them. The client is built before the server (React Router's buildApp), which reads what it found.
 */
const ON_DEMAND_BROWSER = fromRoot("app/components/form/on-demand-fields.browser.tsx");
const ON_DEMAND_CHUNKS = "virtual:vitrine/on-demand-chunks";
let onDemandChunks: Record<string, string[]> = {};
const onDemandFieldChunks: Plugin = {
  name: "vitrine-on-demand-field-chunks",
  generateBundle(_options, bundle) {
    if (this.environment.name !== "client") return;
    const chunks = Object.values(bundle).filter((file) => file.type === "chunk");
    const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
    const withoutExtension = (id: string) => id.replace(/\.tsx?$/, "");
    // The chunk that holds the module: of its own, or shared with a page that imports it statically (the style guide).
    const byModule = new Map(chunks.flatMap((chunk) => chunk.moduleIds.map((id) => [withoutExtension(id), chunk] as const)));
    const found: Record<string, string[]> = {};
    const source = readFileSync(ON_DEMAND_BROWSER, "utf8");
    const entries = [...source.matchAll(/^\s*(\w+): \(\) => import\("([^"]+)"\)/gm)];
    if (!entries.length || entries.length !== source.match(/^\s*\w+: \(\) =>/gm)?.length) {
      this.error(`Each kind in ${ON_DEMAND_BROWSER} should read \`kind: () => import("./module")…\`.`);
    }
    for (const [, kind = "", specifier = ""] of entries) {
      const modulePath = specifier.startsWith("~/")
        ? fromRoot(`app/${specifier.slice(2)}`)
        : path.resolve(path.dirname(ON_DEMAND_BROWSER), specifier);
      const chunk = byModule.get(modulePath);
      if (!chunk) this.error(`The client build has no chunk holding the field kind ${kind} (${specifier}).`);
      const files = new Set<string>();
      const add = (fileName: string) => {
        if (files.has(fileName)) return;
        files.add(fileName);
        for (const imported of byFile.get(fileName)?.imports ?? []) add(imported);
      };
      add(chunk.fileName);
      found[kind] = [...files].map((file) => `${this.environment.config.base}${file}`);
    }
    onDemandChunks = found;
  },
  resolveId: (source) => (source === ON_DEMAND_CHUNKS ? `\0${ON_DEMAND_CHUNKS}` : null),
  load: (id) => (id === `\0${ON_DEMAND_CHUNKS}` ? `export default ${JSON.stringify(onDemandChunks)};` : null),
};

/**
 * The message catalogues the browser fetches (app/lib/catalogue-urls.ts) go out without the indentation they are kept
 * in for editing: 5% of their gzipped bytes. The file name keeps the hash of the source, which changes with it.
 */
const compactCatalogues: Plugin = {
  name: "vitrine-compact-catalogues",
  generateBundle(_options, bundle) {
    if (this.environment.name !== "client") return;
    for (const file of Object.values(bundle)) {
      if (file.type !== "asset" || !file.originalFileNames.some((name) => /(^|\/)locales\/\w+\/\w+\.json$/.test(name))) continue;
      file.source = JSON.stringify(JSON.parse(String(file.source)));
    }
  },
};

/**
 * react-i18next takes useSyncExternalStore from the `use-sync-external-store` shim, written for React before 18; React
 * 19 has its own, which the shim's production build would only hand on: the browser takes React's (0.7 kB gzipped).
 */
const SYNC_EXTERNAL_STORE_SHIM = "use-sync-external-store/shim";
const REACTS_SYNC_EXTERNAL_STORE = "\0vitrine:react-use-sync-external-store";
const reactsSyncExternalStore: Plugin = {
  name: "vitrine-react-use-sync-external-store",
  enforce: "pre",
  resolveId(source) {
    return this.environment.name === "client" && source === SYNC_EXTERNAL_STORE_SHIM ? REACTS_SYNC_EXTERNAL_STORE : null;
  },
  load: (id) => (id === REACTS_SYNC_EXTERNAL_STORE ? `export { useSyncExternalStore } from "react";` : null),
};

/**
 * Vite wraps each dynamic import of the browser build (a field kind's code, a dialog) in its preload helper, which
 * adds a modulepreload link for each file the imported one imports, so that they load side by side. Its own helper
 * also preloads stylesheets (we have one, linked by the root route), reads a CSP nonce meta tag (we have none) and
 * dispatches an event (nothing listens): 0.8 kB gzipped in the editor's file. This one keeps the preloading alone;
 * tests/unit/client-build.test.ts checks it is the one built.
 */
const VITE_PRELOAD_HELPER = "\0vite/preload-helper.js";
const preloadHelper: Plugin = {
  name: "vitrine-preload-helper",
  enforce: "pre",
  load(id) {
    if (this.environment.name !== "client" || id !== VITE_PRELOAD_HELPER) return null;
    const base = JSON.stringify(this.environment.config.base);
    return `const linked = new Set();
export const __vitePreload = (load, deps) => {
  if (!deps?.length) return load();
  if (!linked.size) for (const link of document.querySelectorAll("link[href]")) linked.add(link.href);
  for (const dep of deps) {
    const link = document.createElement("link");
    link.href = ${base} + dep;
    if (linked.has(link.href)) continue;
    linked.add(link.href);
    link.rel = "modulepreload";
    document.head.append(link);
  }
  return load();
};`;
  },
};

/*
 * How the browser build is cut into files (issue 36: the edit page made 59 requests, most scripts under 1 kB):
 * - framework: the libraries every page runs (React, React Router, i18next, Conform's form state): one file;
 * - shell: our modules the root route and the browser entry import (top bar, messages, error page): one file;
 * - editor: our modules a document's page imports beyond the shell (the form and its fields): one file;
 * - history-panel: the history panel a stored document's page shows (versions, comparison, sharing), apart, so that a new
 *   document's page does not load it (app/routes/bucket-edit/stored-page.tsx);
 * - zod apart, claimed before the groups above capture their modules' dependencies, so no page that does not import
 *   it loads it; ajv's compiler apart (the schema editor);
 * - the on-demand field kinds (app/components/form/on-demand-fields.browser.tsx): the reference kinds in one file, the
 *   media kinds in another, fetched when a form has such a field.
 * The shell, the editor and the field kinds' files are found in the module graph (static imports only, so what a page
 * loads when a user asks, a dialog or a panel's check, stays in files of its own).
 * Rolldown's strictExecutionOrder is off: it wraps every module in a function to run it lazily, 4 kB gzipped on the
 * edit page. The first cut into files needed it (a merge ran a module before one it imports: "p is not a function"
 * at hydration); the groups above do not, and the tour fails on any page error or console error in every page and
 * dialog (tests/support/tour-walk.ts), so a merge that breaks the order again is found there.
 */
const FRAMEWORK =
  /node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next|use-sync-external-store|@conform-to[\\/](dom|react)|cookie|set-cookie-parser)[\\/]/;
const SHELL_ROOTS = /[\\/]app[\\/](root|entry\.client)\.tsx(\?|$)/;
const EDITOR_ROOTS = /[\\/]app[\\/]routes[\\/]bucket-edit[\\/][^\\/]+\.tsx(\?|$)/;
const HISTORY_ROOTS = /[\\/]app[\\/](components[\\/]history[\\/]history-panel|routes[\\/]bucket-edit[\\/]stored-page)\.tsx$/;
const MEDIA_FIELD_ROOTS = /[\\/]app[\\/]components[\\/]form[\\/]media[\\/]media-field\.tsx$/;
const REFERENCE_FIELD_ROOTS = /[\\/]app[\\/]components[\\/]form[\\/](reference-field|reference-list-field|inline-field|popup-field)\.tsx$/;
const SERVER_DIR = fromRoot("server/");
const shellModules = new Set<string>();
const editorModules = new Set<string>();
const historyModules = new Set<string>();
const mediaFieldModules = new Set<string>();
const referenceFieldModules = new Set<string>();
const staticGraph: Plugin = {
  name: "vitrine-static-graph",
  buildEnd() {
    if (this.environment.name !== "client") return;
    const reach = (roots: RegExp, into: Set<string>, boundary?: RegExp) => {
      const queue = [...this.getModuleIds()].filter((id) => roots.test(id));
      const seen = new Set<string>();
      for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
        // The server's modules a route imports are left out: their code is dropped with the loaders.
        if (seen.has(id) || id.startsWith(SERVER_DIR) || boundary?.test(id)) continue;
        seen.add(id);
        const info = this.getModuleInfo(id);
        // Route modules stay entries of their own; libraries the framework group claims first, whatever is here.
        // A module that imports across the boundary stays out too: a group takes its modules' imports with them.
        const crosses = boundary && info?.importedIds.some((imported) => boundary.test(imported));
        if (!info?.isEntry && !crosses) into.add(id);
        queue.push(...(info?.importedIds ?? []));
      }
    };
    reach(SHELL_ROOTS, shellModules);
    // The editor's walk stops at the history panel and the page that adds it (the routes of a stored document).
    reach(EDITOR_ROOTS, editorModules, HISTORY_ROOTS);
    reach(HISTORY_ROOTS, historyModules);
    reach(MEDIA_FIELD_ROOTS, mediaFieldModules);
    reach(REFERENCE_FIELD_ROOTS, referenceFieldModules);
    // What both kinds import (the API client, the lazy dialog) joins the editor, so that neither file imports the other.
    for (const id of mediaFieldModules) if (referenceFieldModules.has(id)) editorModules.add(id);
    // Likewise what the history panel shares with a field kind (the publication badge), so that a new document's page
    // with a reference field does not load the history panel's file for it.
    for (const id of historyModules) if (referenceFieldModules.has(id) || mediaFieldModules.has(id)) editorModules.add(id);
  },
};

// The server build's entry is our own HTTP server (server/app.ts), which
// imports React Router's build: one bundle, one copy of every module.
export default defineConfig(({ command }) => ({
  resolve: { tsconfigPaths: true },
  // One stylesheet for every page (about 60 kB, 12 kB compressed, cached for good): React Router links it from the
  // root route. Split per route it was four to six small files on the edit page.
  build: { cssCodeSplit: false },
  environments: {
    client: {
      build: {
        target: "es2022",
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: "zod", test: /node_modules[\\/]zod[\\/]/, priority: 9 },
                { name: "framework", test: FRAMEWORK, tags: ["$initial"], priority: 8 },
                { name: "shell", test: (id) => shellModules.has(id), priority: 7 },
                { name: "editor", test: (id) => editorModules.has(id), priority: 6 },
                { name: "history-panel", test: (id) => historyModules.has(id) && !editorModules.has(id), priority: 5 },
                {
                  name: "ajv",
                  test: /node_modules[\\/](ajv[\\/](?!dist[\\/]runtime)|ajv-formats[\\/]|fast-uri[\\/]|json-schema-traverse[\\/])/,
                  priority: 5,
                },
                { name: "media-fields", test: (id) => mediaFieldModules.has(id), priority: 4 },
                { name: "reference-fields", test: (id) => referenceFieldModules.has(id), priority: 3 },
              ],
            },
          },
        },
      },
    },
    ssr: {
      // Packages of many small ES modules cost the server's start-up far more as separate files (each resolved,
      // read and compiled on its own) than bundled: zod alone is 97 files. Each group is bundled whole, so that no
      // package keeps a second copy of another (the @conform-to packages share zod's classes; react-i18next and
      // remix-i18next share i18next's instance). Not in `npm run dev`: its module runner cannot run ajv's CommonJS
      // inline, and there Node loads each package once anyway.
      resolve: { noExternal: command === "build" ? ["zod", /^@conform-to\//, "i18next", "react-i18next", "remix-i18next", "ajv"] : [] },
      build: {
        // The media worker is a second entry: forked by the job runner from beside index.js.
        rollupOptions: {
          input: { index: "./server/app.ts", "media-worker": "./workers/media-worker.ts" },
          // ASCII, without JSDoc: V8 keeps every module's source for the process's life, as two bytes per character
          // when one of them is beyond Latin-1 (an arrow in a comment was enough). tests/unit/server-build.test.ts.
          output: {
            chunkFileNames: "chunks/[name]-[hash].js",
            charset: "ascii",
            comments: { legal: true, annotation: false, jsdoc: false },
          },
        },
        target: "node20",
      },
    },
  },
  plugins: [
    staticGraph,
    browserVariants,
    reactsSyncExternalStore,
    preloadHelper,
    reactRouterProductionInBrowser,
    onDemandFieldChunks,
    compactCatalogues,
    reactRouter(),
    namedWorkerEntry,
  ],
}));
