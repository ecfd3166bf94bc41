import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * The browser build as React Router's manifest names it (npm test builds it before the suite). Issue 36: the edit
 * page of a document made 59 requests, 52 of them scripts, most under 1 kB; vite.config.ts now cuts the client build
 * into files by purpose (framework, shell, editor, field kinds). The bench's edit-requests section counts them in a
 * browser; this keeps the count from creeping back between runs of it.
 */
const ASSETS_DIR = path.resolve(process.env.VITRINE_BUILD_DIR ?? "build", "client", "assets");

interface ManifestEntry {
  module: string;
  imports?: string[];
  css?: string[];
}

function manifest(): { entry: ManifestEntry; routes: Record<string, ManifestEntry> } {
  const file = readdirSync(ASSETS_DIR).find((name) => /^manifest-.*\.js$/.test(name));
  if (!file) throw new Error(`no route manifest in ${ASSETS_DIR}`);
  const text = readFileSync(path.join(ASSETS_DIR, file), "utf8");
  return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1));
}

/** The scripts and stylesheets a cold load of the route's page fetches before hydrating (field kinds aside). */
function pageFiles(routeIds: string[]): { scripts: string[]; stylesheets: string[] } {
  const { entry, routes } = manifest();
  const entries = [entry, ...routeIds.map((id) => routes[id]!)];
  const scripts = new Set(entries.flatMap((item) => [item.module, ...(item.imports ?? [])]));
  const stylesheets = new Set(entries.flatMap((item) => item.css ?? []));
  return { scripts: [...scripts], stylesheets: [...stylesheets] };
}

const EDIT_PAGE = ["root", "routes/bucket", "bucket-latest"];

describe("the browser build", () => {
  it("holds no server code: no SQL statement in any browser file", () => {
    // A route module's action that calls a helper whose module imports the server's stores (their statements are
    // registered when the module loads, so the bundler keeps them) once put 23 kB of SQL into the overview's file.
    const withSql = readdirSync(ASSETS_DIR)
      .filter((name) => name.endsWith(".js"))
      .filter((name) =>
        /\b(INSERT INTO|SELECT [\s\S]{1,200}? FROM|UPDATE \w+ SET|DELETE FROM) \w/.test(readFileSync(path.join(ASSETS_DIR, name), "utf8")),
      );
    expect(withSql).toEqual([]);
  });

  it("gives a document's edit page a handful of scripts and one stylesheet", () => {
    const { scripts, stylesheets } = pageFiles(EDIT_PAGE);
    // Runtime, framework, shell, editor, history panel, the entry and the three routes' own modules (59 requests before issue 36).
    expect(scripts.length).toBeLessThanOrEqual(10);
    expect(stylesheets).toHaveLength(1);
  });

  it("keeps zod out of the edit page's scripts", () => {
    const withZod = pageFiles(EDIT_PAGE).scripts.filter((script) =>
      readFileSync(path.join(ASSETS_DIR, path.basename(script)), "utf8").includes("_zod"),
    );
    expect(withZod).toEqual([]);
  });

  it("keeps the specialised screens' parts out of the edit page's scripts, and in their own pages'", () => {
    // Each screen's parts name their class (specialised-screens/*/components/): the editor's chunk groups
    // (vite.config.ts) walk from the generic edit page's modules, which import no screen.
    const SCREEN_CLASSES = ["session-editor", "dle-content-screen", "trend-screen"];
    const withScreens = (routeIds: string[]) =>
      pageFiles(routeIds).scripts.flatMap((script) => {
        const text = readFileSync(path.join(ASSETS_DIR, path.basename(script)), "utf8");
        return SCREEN_CLASSES.filter((name) => new RegExp(`[^\\w-]${name}\\b`).test(text));
      });
    expect(withScreens(EDIT_PAGE)).toEqual([]);
    expect(withScreens(["root", "routes/bucket", "bucket-new"])).toEqual([]);
    expect(withScreens(["root", "trend-edit"])).toEqual(["trend-screen"]);
    expect(withScreens(["root", "dle-content-version"])).toEqual(["dle-content-screen"]);
    expect(withScreens(["root", "sessies-edit"])).toEqual(["session-editor"]);
  });

  it("keeps the history panel out of a new document's page and in a stored document's", () => {
    // The panel's compare button (app/components/history/history-list.tsx): only a stored document shows it.
    const withHistory = (routeIds: string[]) =>
      pageFiles(routeIds).scripts.filter((script) =>
        readFileSync(path.join(ASSETS_DIR, path.basename(script)), "utf8").includes("history-compare"),
      );
    expect(withHistory(["root", "routes/bucket", "bucket-new"])).toEqual([]);
    expect(withHistory(["root", "routes/bucket", "bucket-duplicate"])).toEqual([]);
    expect(withHistory(EDIT_PAGE)).toHaveLength(1);
  });
});
