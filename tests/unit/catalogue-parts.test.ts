import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BUNDLED_PARTS, CATALOGUE_PARTS, cataloguePartsOf, type CataloguePart } from "@core/catalogue-parts";
import { ON_DEMAND_KINDS, ON_DEMAND_MESSAGES, type OnDemandKind } from "~/components/form/on-demand-kinds";

/*
 * The browser fetches the catalogue's `admin` part only for pages whose routes ask for it, and its `media` part only
 * for those pages and for the field kinds that ask for it (handle.messages and on-demand-kinds.ts,
 * core/catalogue-parts.ts). This holds every page and kind to that: no code a route (with its parents) or an
 * on-demand field kind can load, statically or by a dynamic import, names a message group of such a part unless that
 * route or kind asks for it; else the page would show a message key. The field kinds are walked on their own: a page
 * reaches their code through on-demand-fields.tsx only when its form renders them.
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const groupsOf = (part: CataloguePart | (typeof BUNDLED_PARTS)[number]) =>
  Object.keys(JSON.parse(read(`locales/en/${part}.json`)) as object);
const ON_DEMAND_FIELDS = "app/components/form/on-demand-fields.tsx";
/**
 * Named where it cannot reach a page without the part: normalize.ts words its two schema problems in English when it
 * loads, and only the server's and the bucket admin's problems are shown; the library dialog of a sub-form's media
 * field fetches the `pages` part itself when it opens (useInterfaceLanguage), and renders once it is there.
 */
const ALLOWED: Partial<Record<CataloguePart, ReadonlySet<string>>> = {
  admin: new Set(["core/schema/normalize.ts"]),
  pages: new Set(["app/components/form/media/library-dialog.tsx"]),
};

interface RouteNode {
  file: string;
  children?: RouteNode[];
}

/** The path aliases of tsconfig.json that reach app/ and core/. */
const ALIASES: Record<string, string> = { "~/": "app/", "@core/": "core/" };

function resolve(from: string, specifier: string): string | null {
  const alias = Object.entries(ALIASES).find(([prefix]) => specifier.startsWith(prefix));
  const base = alias ? `${alias[1]}${specifier.slice(alias[0].length)}` : path.posix.join(path.posix.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (/\.(ts|tsx)$/.test(candidate) && existsSync(path.join(ROOT, candidate))) return candidate;
  }
  return null;
}

/** Files of app/ and core/ a module reaches through relative and aliased imports (static, dynamic, type-only left out), up to the on-demand field kinds. */
function reach(start: string, seen = new Set<string>()): Set<string> {
  if (seen.has(start)) return seen;
  seen.add(start);
  if (start === ON_DEMAND_FIELDS) return seen;
  const code = read(start);
  const specifiers = [
    ...code.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+"((?:\.|~\/|@core\/)[^"]+)"/gm),
    ...code.matchAll(/^\s*import\s+"((?:\.|~\/|@core\/)[^"]+)"/gm),
    ...code.matchAll(/import\(\s*"((?:\.|~\/|@core\/)[^"]+)"\s*\)/g),
  ].map((match) => match[1]!);
  for (const specifier of specifiers) {
    const file = resolve(start, specifier);
    if (file && /^(app|core)\//.test(file)) reach(file, seen);
  }
  return seen;
}

/** What the files name of the part's groups, unless allowed: "file names group". */
function namedGroups(part: CataloguePart | (typeof BUNDLED_PARTS)[number], files: Iterable<string>): string[] {
  const groups = groupsOf(part);
  const named: string[] = [];
  for (const file of files) {
    if (!(BUNDLED_PARTS as readonly string[]).includes(part) && ALLOWED[part as CataloguePart]?.has(file)) continue;
    for (const group of groups) if (new RegExp(`["'\`]${group}\\.`).test(read(file))) named.push(`${file} names ${group}`);
  }
  return named;
}

const PARTS_BESIDES_COMMON = CATALOGUE_PARTS.filter((part) => part !== "common");

describe.each(PARTS_BESIDES_COMMON)("the catalogue's %s part", (part) => {
  it("is asked for by every page whose code names its messages", async () => {
    const routes: RouteNode[] = (await import("~/routes")).default;
    const missing: string[] = [];
    const asks = (file: string) =>
      new RegExp(`export const handle\\s*=\\s*\\{[^}]*messages:\\s*\\[[^\\]]*"${part}"`).test(read(`app/${file}`));
    const walk = (nodes: RouteNode[], chain: string[]) => {
      for (const node of nodes) {
        const files = [...chain, node.file];
        // A resource route (.ts: JSON, files, redirects) renders no page; the server words its messages.
        if (node.file.endsWith(".tsx") && !files.some(asks)) {
          for (const named of namedGroups(part, reach(`app/${node.file}`))) missing.push(`${node.file}: ${named}`);
        }
        if (node.children) walk(node.children, files);
      }
    };
    walk(routes, ["root.tsx"]);
    expect(missing).toEqual([]);
    // Importing app/routes.ts through Vite's transform took 3 s with both cores busy: past vitest's default 5 s at times.
  }, 30_000);

  it("comes with every on-demand field kind whose code names its messages", () => {
    const browser = read("app/components/form/on-demand-fields.browser.tsx");
    const kinds = [...browser.matchAll(/^\s*(\w+): \(\) => import\("([^"]+)"\)/gm)].map(([, kind, specifier]) => ({
      kind: kind as OnDemandKind,
      specifier: specifier!,
    }));
    expect(kinds.map(({ kind }) => kind).sort()).toEqual([...ON_DEMAND_KINDS].sort());
    const missing = kinds.flatMap(({ kind, specifier }) => {
      if (ON_DEMAND_MESSAGES[kind] === part) return [];
      const module = resolve("app/components/form/on-demand-fields.browser.tsx", specifier);
      return module ? namedGroups(part, reach(module)).map((named) => `${kind}: ${named}`) : [`${kind}: ${specifier} not found`];
    });
    expect(missing).toEqual([]);
  });
});

/** The modules that give the browser a bundled part, both languages, with the code that shows it. */
const BUNDLED_MODULES: Record<(typeof BUNDLED_PARTS)[number], string> = {
  share: "app/components/share/share-messages.ts",
  publishing: "app/components/publishing/publishing-messages.ts",
  history: "app/components/history/history-messages.ts",
  releases: "app/components/releases/release-messages.ts",
};

describe.each(BUNDLED_PARTS)("the catalogue's bundled %s part", (part) => {
  const module = BUNDLED_MODULES[part];

  it("comes with the code of every page whose code names its messages", async () => {
    const routes: RouteNode[] = (await import("~/routes")).default;
    const missing: string[] = [];
    const walk = (nodes: RouteNode[], chain: string[]) => {
      for (const node of nodes) {
        const files = [...chain, node.file];
        if (node.file.endsWith(".tsx")) {
          const reached = new Set<string>();
          for (const file of files) reach(`app/${file}`, reached);
          if (!reached.has(module)) for (const named of namedGroups(part, reached)) missing.push(`${node.file}: ${named}`);
        }
        if (node.children) walk(node.children, files);
      }
    };
    walk(routes, ["root.tsx"]);
    expect(missing).toEqual([]);
    // Importing app/routes.ts through Vite's transform took 3 s with both cores busy: past vitest's default 5 s at times.
  }, 30_000);

  it("is imported by each module of the interface that names its messages", () => {
    // So that such code brings its messages wherever it is used, not only where a route happens to import both.
    const files = readdirSync(path.join(ROOT, "app"), { recursive: true, encoding: "utf8" })
      .map((file) => `app/${file.split(path.sep).join("/")}`)
      .filter((file) => /\.tsx?$/.test(file) && !/\.(server|test)\.tsx?$/.test(file));
    const naming = files.filter((file) => namedGroups(part, [file]).length > 0);
    expect(naming.length).toBeGreaterThan(0);
    const importsIt = (file: string) => [...reach(file)].some((reached) => reached === module);
    expect(naming.filter((file) => !importsIt(file))).toEqual([]);
  });
});

it("lists every bundled part's module", () => {
  expect(Object.keys(BUNDLED_MODULES).sort()).toEqual([...BUNDLED_PARTS].sort());
});

describe("cataloguePartsOf", () => {
  it("is what a page's routes name in their handles, with `common` always", () => {
    expect(cataloguePartsOf([])).toEqual(["common"]);
    expect(cataloguePartsOf([undefined, { streamsBody: true }, { messages: ["admin"] }])).toEqual(["common", "admin"]);
    expect(cataloguePartsOf([{ messages: ["nonsense"] }])).toEqual(["common"]);
  });
});
