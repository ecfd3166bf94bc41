// The layering check (npm run lint): dependencies only point down. specialised-screens/ holds the specialised screens, one folder
// each, with parts of several layers told apart by name (docs/decisions/006-screens-as-modules.md). app → server (from the route modules, the root
// and the server entry only) and app/server/workers → core; core stays runnable in the browser and on the server.
// Imports are resolved as the build resolves them (tsconfig paths included), so `~/…` and `../../` count alike.
// Type-only imports count too: a component that names a server type is coupled to the server all the same.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "core-imports-no-layer-above",
      comment: "core/ is shared by the browser and the server: it imports nothing from app/, server/ or workers/.",
      severity: "error",
      from: { path: "^core/" },
      to: { path: "^(app|server|workers)/" },
    },
    {
      name: "core-imports-no-node-builtins",
      comment: "core/ runs in the browser too: no node:* modules (and no database).",
      severity: "error",
      from: { path: "^core/" },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "core-imports-no-server-packages",
      comment: "core/ runs in the browser too: no database drivers or other server-only packages.",
      severity: "error",
      from: { path: "^core/" },
      to: { path: "(^|/)node_modules/(pg|@electric-sql/pglite|sharp|busboy|pino|sirv|@react-router/node)/" },
    },
    {
      name: "server-imports-nothing-from-app",
      comment: "server/ and workers/ sit below app/: what both need belongs in core/.",
      severity: "error",
      from: { path: "^(server|workers)/" },
      to: { path: "^app/" },
    },
    {
      name: "only-routes-import-server",
      comment:
        "In app/, only the route modules, root.tsx and entry.server.tsx (which run on the server) import from server/: " +
        "components and browser code get what they need through loader data or core/.",
      severity: "error",
      from: { path: "^app/", pathNot: "^app/(routes/|root\\.tsx$|entry\\.server\\.tsx$)" },
      to: { path: "^server/" },
    },
    {
      name: "domain-knows-no-http",
      comment:
        "The domain folders of server/ know nothing of HTTP: no server/web/ and no react-router (AppLoadContext included). " +
        "They take Services (server/services.ts) and plain values, and refuse with server/errors.ts; server/web/ and " +
        "app/routes/ read bodies, sessions, headers and locales and turn refusals into answers.",
      severity: "error",
      from: { path: "^server/(content|accounts|media|delivery|webhooks|jobs|admin|mail)/" },
      to: { path: "^server/web/|(^|/)node_modules/react-router/" },
    },
    {
      name: "save-path-knows-no-field-kind",
      comment:
        "The save path (the front door, its rules, the form pipeline and the form's resolver) reads the field kinds' rules " +
        "and intents from their tables (core/content/document-rules.ts, core/form/intents.ts), never from the kinds' own " +
        "modules; the screens' rules reach it through the table it is handed (core/content/screen-table.ts), their modules " +
        "being out of its reach by engine-imports-no-screen.",
      severity: "error",
      from: {
        path: "^(server/content/(save|save-rules|save-form|submission-write|save-json|save-media|save-subforms)|core/form/(subforms|resolve))\\.ts$",
      },
      to: { path: "^core/(content/(trends|cases)|form/(cases-picker|trend-add))\\.ts$" },
    },
    {
      name: "engine-imports-no-screen",
      comment:
        "The engine (app/, core/, server/, workers/) imports no screen (specialised-screens/): it is handed the screens' table " +
        "(specialised-screens/table.ts) by the composition roots, app/routes.ts (the routes), app/root.tsx (the browser) and " +
        "server/app.ts (the server), and reads each screen's rules and requirements from it " +
        "(docs/decisions/006-screens-as-modules.md).",
      severity: "error",
      from: { path: "^(app|core|server|workers)/", pathNot: "^(app/(routes\\.ts|root\\.tsx)|server/app\\.ts)$" },
      to: { path: "^specialised-screens/" },
    },
    {
      name: "screen-core-imports-no-layer-above",
      comment:
        "A screen's plain modules (specialised-screens/**/*.ts but *.server.ts and components/) are its core: they run in the " +
        "browser and on the server, so they import core/ and each other only, never app/, server/, workers/, a component or a " +
        "*.server module. A components/*.ts module (a hook) is one of its components.",
      severity: "error",
      from: { path: "^specialised-screens/.*\\.ts$", pathNot: "\\.server\\.ts$|/components/" },
      to: { path: "^(app|server|workers)/|\\.tsx$|\\.server\\.ts$" },
    },
    {
      name: "screen-core-imports-no-node-builtins",
      comment: "A screen's plain modules run in the browser too: no node:* modules.",
      severity: "error",
      from: { path: "^specialised-screens/.*\\.ts$", pathNot: "\\.server\\.ts$|/components/" },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "screen-components-import-no-server",
      comment:
        "A screen's components (specialised-screens/**/components/) run in the browser: they get what they need through loader " +
        "data, as app/components do; only its route modules (specialised-screens/*/*.tsx) and *.server.ts modules reach the server.",
      severity: "error",
      from: { path: "^specialised-screens/[^/]+/components/" },
      to: { path: "^server/" },
    },
    {
      name: "screen-components-run-no-server-module",
      comment:
        "A screen's components run no *.server module: they may name its loader data's type (`import type`, as " +
        "app/components name their routes' loader data), which loads nothing in the browser.",
      severity: "error",
      from: { path: "^specialised-screens/[^/]+/components/" },
      to: { path: "\\.server\\.tsx?$", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "no-import-cycle",
      comment:
        "Modules import one way: a cycle of runtime imports makes one module see another half-initialised and ties them " +
        "together for good. A container field renders its children through NestedField (app/components/form/nested-field.tsx), " +
        "not the registry that imports it. Cycles of type-only imports (a route's `typeof loader`) load nothing and pass.",
      severity: "error",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "not-to-unresolvable",
      comment: "An import the checker cannot resolve would escape the rules above.",
      severity: "error",
      from: { path: "^(app|core|server|workers|specialised-screens)/" },
      to: { couldNotResolve: true, pathNot: ["^virtual:", "(^|/)\\+types/"] },
    },
  ],
  options: {
    doNotFollow: { path: ["node_modules"] },
    exclude: { path: ["\\.test\\.tsx?$"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json", ".d.ts"],
      mainFields: ["module", "main", "types", "typings"],
    },
    skipAnalysisNotInRules: true,
  },
};
