import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

// The layering check as npm run lint runs it: the real configuration, on the real tree or on a small tree of the same
// shape made for one test (so no stray file ever lands in the sources other tests and builds read).
const ROOT = path.resolve(import.meta.dirname, "../..");
const CONFIG = path.join(ROOT, ".dependency-cruiser.cjs");
const DEPCRUISE = path.join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
const LAYERS = ["app", "core", "server", "workers", "specialised-screens"];

function checkLayers(cwd: string) {
  const result = spawnSync(process.execPath, [DEPCRUISE, ...LAYERS, "--config", CONFIG, "--output-type", "err"], {
    cwd,
    encoding: "utf8",
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const trees: string[] = [];
afterEach(() => {
  for (const tree of trees.splice(0)) rmSync(tree, { recursive: true, force: true });
});

/** A project of the real shape (tsconfig with the path aliases, the layers and specialised-screens/) holding only `files`. */
function treeWith(files: Record<string, string>): string {
  const tree = mkdtempSync(path.join(tmpdir(), "vitrine-layers-"));
  trees.push(tree);
  writeFileSync(
    path.join(tree, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        moduleResolution: "bundler",
        module: "ES2022",
        paths: { "~/*": ["./app/*"], "@server/*": ["./server/*"], "@core/*": ["./core/*"], "@screens/*": ["./specialised-screens/*"] },
      },
    }),
  );
  const allFiles = {
    "app/components/badge.tsx": "export const Badge = () => null;\n",
    "core/ids.ts": "export const newId = () => 'id';\n",
    "server/config.ts": "export const loadConfig = () => ({});\n",
    "workers/worker.ts": "import { newId } from '../core/ids';\nexport const job = newId;\n",
    "specialised-screens/table.ts": "export const SCREEN_TABLE = [];\n",
    ...files,
  };
  for (const [file, text] of Object.entries(allFiles)) {
    mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
    writeFileSync(path.join(tree, file), text);
  }
  return tree;
}

// Each check is a node process loading TypeScript: seconds, not milliseconds, on a busy machine.
describe("the layering check", { timeout: 30_000 }, () => {
  it("passes on the real tree", () => {
    const result = checkLayers(ROOT);
    expect(result.output).toContain("no dependency violations found");
    expect(result.status).toBe(0);
  });

  it("passes on a tree whose dependencies all point down", () => {
    const result = checkLayers(
      treeWith({
        "app/routes/home.tsx":
          "import { loadConfig } from '../../server/config';\nimport { newId } from '../../core/ids';\nexport const loader = () => [loadConfig(), newId()];\n",
        "app/root.tsx": "import { loadConfig } from '../server/config';\nexport const loader = loadConfig;\n",
        "server/ids.ts": "import { newId } from '../core/ids';\nexport const serverId = newId;\n",
      }),
    );
    expect(result.output).toContain("no dependency violations found");
    expect(result.status).toBe(0);
  });

  it("fails when core imports from a layer above it, a node builtin or a database driver, naming rule and import", () => {
    const result = checkLayers(
      treeWith({
        "core/wrong-way.ts": "import { loadConfig } from '../server/config';\nexport const config = loadConfig;\n",
        "core/through-alias.ts": "import { Badge } from '~/components/badge';\nexport const badge = Badge;\n",
        "core/through-server-alias.ts": "import { loadConfig } from '@server/config';\nexport const config = loadConfig;\n",
        "core/reads-files.ts": "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
        "core/hashes.ts": "import { createHash } from 'crypto';\nexport const hash = createHash;\n",
        "node_modules/pg/package.json": JSON.stringify({ name: "pg", main: "index.js" }),
        "node_modules/pg/index.js": "module.exports = {};\n",
        "core/query.ts": "import pg from 'pg';\nexport const driver = pg;\n",
      }),
    );
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("core-imports-no-layer-above: core/wrong-way.ts → server/config.ts");
    expect(result.output).toContain("core-imports-no-layer-above: core/through-alias.ts → app/components/badge.tsx");
    expect(result.output).toContain("core-imports-no-layer-above: core/through-server-alias.ts → server/config.ts");
    // The checker names node:fs by its bare name.
    expect(result.output).toContain("core-imports-no-node-builtins: core/reads-files.ts → fs");
    expect(result.output).toContain("core-imports-no-node-builtins: core/hashes.ts → crypto");
    expect(result.output).toContain("core-imports-no-server-packages: core/query.ts → node_modules/pg/index.js");
  });

  it("fails when server or a worker imports from app, type-only imports included", () => {
    const result = checkLayers(
      treeWith({
        "server/wrong-way.ts": "import type { Badge } from '../app/components/badge';\nexport type Shown = typeof Badge;\n",
        "workers/wrong-way.ts": "import { Badge } from '~/components/badge';\nexport const badge = Badge;\n",
      }),
    );
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("server-imports-nothing-from-app: server/wrong-way.ts → app/components/badge.tsx");
    expect(result.output).toContain("server-imports-nothing-from-app: workers/wrong-way.ts → app/components/badge.tsx");
  });

  it("fails when a component or browser code imports from server; route modules may", () => {
    const result = checkLayers(
      treeWith({
        "app/components/settings.tsx": "import { loadConfig } from '../../server/config';\nexport const settings = loadConfig;\n",
        "app/lib/client.ts": "import { loadConfig } from '../../server/config';\nexport const client = loadConfig;\n",
        "app/routes/settings.tsx": "import { loadConfig } from '../../server/config';\nexport const loader = loadConfig;\n",
      }),
    );
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("only-routes-import-server: app/components/settings.tsx → server/config.ts");
    expect(result.output).toContain("only-routes-import-server: app/lib/client.ts → server/config.ts");
    expect(result.output).not.toContain("app/routes/settings.tsx");
  });

  it("fails when a domain folder of server imports server/web or react-router, type-only imports included; web may", () => {
    const result = checkLayers(
      treeWith({
        "node_modules/react-router/package.json": JSON.stringify({ name: "react-router", main: "index.js", types: "index.d.ts" }),
        "node_modules/react-router/index.js": "module.exports = {};\n",
        "node_modules/react-router/index.d.ts": "export interface AppLoadContext { db: unknown }\n",
        "server/web/guards.ts": "export const requireUser = () => null;\n",
        "server/web/context.ts": "import type { AppLoadContext } from 'react-router';\nexport type Context = AppLoadContext;\n",
        "server/content/x.ts": "import { requireUser } from '@server/web/guards';\nexport const guard = requireUser;\n",
        "server/accounts/y.ts": "import type { AppLoadContext } from 'react-router';\nexport type Context = AppLoadContext;\n",
      }),
    );
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("domain-knows-no-http: server/content/x.ts → server/web/guards.ts");
    expect(result.output).toContain("domain-knows-no-http: server/accounts/y.ts → node_modules/react-router/");
    expect(result.output).not.toContain("server/web/context.ts");
  });

  it("fails when the save path imports a field kind's module instead of reading its table", () => {
    const result = checkLayers(
      treeWith({
        "core/content/trends.ts": "export const selfReferencingField = () => null;\n",
        "core/content/document-rules.ts":
          "import { selfReferencingField } from './trends';\nexport const DOCUMENT_RULES = [selfReferencingField];\n",
        "server/content/save-rules.ts":
          "import { selfReferencingField } from '@core/content/trends';\nexport const rule = selfReferencingField;\n",
        "server/content/save.ts": "import { DOCUMENT_RULES } from '@core/content/document-rules';\nexport const rules = DOCUMENT_RULES;\n",
      }),
    );
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("save-path-knows-no-field-kind: server/content/save-rules.ts → core/content/trends.ts");
    expect(result.output).not.toContain("server/content/save.ts");
  });

  it("fails when the engine imports a screen, or a screen's browser part reaches the server; the composition roots pass", () => {
    const result = checkLayers(
      treeWith({
        "specialised-screens/trend/rule.ts": "export const rule = 1;\n",
        "specialised-screens/trend/screen.ts": "import { rule } from './rule';\nexport const TREND = { rules: [rule] };\n",
        "specialised-screens/table.ts": "import { TREND } from './trend/screen';\nexport const SCREEN_TABLE = [TREND];\n",
        "specialised-screens/trend/where-used.server.ts": "import { loadConfig } from '@server/config';\nexport const load = loadConfig;\n",
        "specialised-screens/trend/parts.ts": "import { load } from './where-used.server';\nexport const parts = load;\n",
        "specialised-screens/trend/components/aside.tsx": "import { load } from '../where-used.server';\nexport const Aside = load;\n",
        "specialised-screens/trend/components/related.tsx":
          "import { loadConfig } from '@server/config';\nexport const Related = loadConfig;\n",
        // Naming the loader data's type loads nothing in the browser: it passes.
        "specialised-screens/trend/components/parts.tsx":
          "import type { load } from '../where-used.server';\nexport const parts = (data: ReturnType<typeof load>) => data;\n",
        "specialised-screens/trend/edit.tsx": "import { load } from './where-used.server';\nexport const loader = load;\n",
        "server/content/save.ts": "import { rule } from '@screens/trend/rule';\nexport const rules = [rule];\n",
        "server/app.ts": "import { SCREEN_TABLE } from '@screens/table';\nexport const screens = SCREEN_TABLE;\n",
        "app/root.tsx": "import { SCREEN_TABLE } from '@screens/table';\nexport const screens = SCREEN_TABLE;\n",
      }),
    );
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("engine-imports-no-screen: server/content/save.ts → specialised-screens/trend/rule.ts");
    expect(result.output).toContain(
      "screen-core-imports-no-layer-above: specialised-screens/trend/parts.ts → specialised-screens/trend/where-used.server.ts",
    );
    expect(result.output).toContain(
      "screen-components-run-no-server-module: specialised-screens/trend/components/aside.tsx → specialised-screens/trend/where-used.server.ts",
    );
    expect(result.output).toContain(
      "screen-components-import-no-server: specialised-screens/trend/components/related.tsx → server/config.ts",
    );
    expect(result.output).not.toContain("specialised-screens/trend/components/parts.tsx →");
    expect(result.output).not.toContain("server/app.ts →");
    expect(result.output).not.toContain("app/root.tsx →");
    expect(result.output).not.toContain("specialised-screens/trend/edit.tsx →");
  });

  it("fails on a cycle of runtime imports, as the form's fields once had; a cycle of type-only imports passes", () => {
    const result = checkLayers(
      treeWith({
        "app/components/form/schema-field.tsx": "import { ListField } from './registry';\nexport const SchemaField = () => ListField;\n",
        "app/components/form/registry.tsx": "import { ListField } from './list-field';\nexport { ListField };\n",
        "app/components/form/list-field.tsx":
          "import { SchemaField } from './schema-field';\nexport const ListField = () => SchemaField;\n",
        "app/root.tsx": "import { useRootData } from './lib/root-data';\nexport const loader = () => 1;\nexport const App = useRootData;\n",
        "app/lib/root-data.ts": "import type { loader } from '../root';\nexport const useRootData = (): ReturnType<typeof loader> => 1;\n",
      }),
    );
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("no-import-cycle: app/components/form/list-field.tsx → ");
    expect(result.output).not.toContain("root-data");
  });

  it("fails on an import it cannot resolve, which would otherwise escape the rules", () => {
    const result = checkLayers(
      treeWith({ "core/typo.ts": "import { loadConfig } from '../server/confg';\nexport const config = loadConfig;\n" }),
    );
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("not-to-unresolvable: core/typo.ts → ../server/confg");
  });
});
