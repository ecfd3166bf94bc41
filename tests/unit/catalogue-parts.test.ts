import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cataloguePartsOf } from "../../core/catalogue-parts";

/*
 * The browser fetches the catalogue's `admin` part only for pages whose routes ask for it (handle.messages,
 * core/catalogue-parts.ts). This holds every page to that: no code a route (with its parents) can load, statically or
 * by a dynamic import, names a message group of the admin part unless a route of the chain asks for it; else the
 * page would show a message key.
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const ADMIN_GROUPS = Object.keys(JSON.parse(read("locales/en/admin.json")) as object);
/**
 * Named where it cannot reach a page without the admin part: normalize.ts words its two schema problems in English
 * when it loads, and only the server's and the bucket admin's problems are shown.
 */
const ALLOWED = new Set(["core/schema/normalize.ts"]);

interface RouteNode {
  file: string;
  children?: RouteNode[];
}

function resolve(from: string, specifier: string): string | null {
  const base = path.posix.join(path.posix.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (/\.(ts|tsx)$/.test(candidate) && existsSync(path.join(ROOT, candidate))) return candidate;
  }
  return null;
}

/** Files of app/ and core/ a module reaches through relative imports (static, dynamic, type-only left out). */
function reach(start: string, seen = new Set<string>()): Set<string> {
  if (seen.has(start)) return seen;
  seen.add(start);
  const code = read(start);
  const specifiers = [
    ...code.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+"(\.[^"]+)"/gm),
    ...code.matchAll(/^\s*import\s+"(\.[^"]+)"/gm),
    ...code.matchAll(/import\(\s*"(\.[^"]+)"\s*\)/g),
  ].map((match) => match[1]!);
  for (const specifier of specifiers) {
    const file = resolve(start, specifier);
    if (file && /^(app|core)\//.test(file)) reach(file, seen);
  }
  return seen;
}

const namesAdminGroup = (file: string) =>
  ADMIN_GROUPS.filter((group) => new RegExp(`["'\`]${group}\\.`).test(read(file)));

describe("the catalogue's admin part", () => {
  it("is asked for by every page whose code names its messages", async () => {
    const routes: RouteNode[] = (await import("../../app/routes")).default;
    const missing: string[] = [];
    const asks = (file: string) => /export const handle\s*=\s*\{[^}]*messages:\s*\[[^\]]*"admin"/.test(read(`app/${file}`));
    const walk = (nodes: RouteNode[], chain: string[]) => {
      for (const node of nodes) {
        const files = [...chain, node.file];
        // A resource route (.ts: JSON, files, redirects) renders no page; the server words its messages.
        if (node.file.endsWith(".tsx") && !files.some(asks)) {
          for (const file of reach(`app/${node.file}`)) {
            if (ALLOWED.has(file)) continue;
            for (const group of namesAdminGroup(file)) missing.push(`${node.file}: ${file} names ${group}`);
          }
        }
        if (node.children) walk(node.children, files);
      }
    };
    walk(routes, ["root.tsx"]);
    expect(missing).toEqual([]);
  });

  it("is what a page's routes name in their handles, with `common` always", () => {
    expect(cataloguePartsOf([])).toEqual(["common"]);
    expect(cataloguePartsOf([undefined, { streamsBody: true }, { messages: ["admin"] }])).toEqual(["common", "admin"]);
    expect(cataloguePartsOf([{ messages: ["nonsense"] }])).toEqual(["common"]);
  });
});
