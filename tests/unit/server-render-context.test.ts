import type { EntryContext } from "react-router";
import { describe, expect, it } from "vitest";
import { matchedRoutesOnly } from "~/server-render-context";

/** An entry context with only what matchedRoutesOnly reads. */
function contextOf(matchedIds: string[], mode: "initial" | "lazy" = "initial"): EntryContext {
  const entry = (id: string, parentId?: string) => ({ id, parentId, module: `/assets/${id}.js`, hasLoader: true });
  return {
    routeDiscovery: { mode, manifestPath: "/__manifest" },
    manifest: {
      entry: { module: "/assets/entry.js", imports: [] },
      url: "/assets/manifest.js",
      version: "1",
      routes: {
        root: entry("root"),
        home: entry("home", "root"),
        bucket: entry("bucket", "root"),
        overview: entry("overview", "bucket"),
        settings: entry("settings", "root"),
      },
    },
    staticHandlerContext: { matches: matchedIds.map((id) => ({ route: { id } })) },
  } as unknown as EntryContext;
}

describe("matchedRoutesOnly: the server render gets the request's matched routes", () => {
  it("keeps the matched chain, root to leaf, and the rest of the manifest", () => {
    const context = contextOf(["root", "bucket", "overview"]);
    const rendered = matchedRoutesOnly(context);
    expect(Object.keys(rendered.manifest.routes)).toEqual(["root", "bucket", "overview"]);
    expect(rendered.manifest.routes.overview).toBe(context.manifest.routes.overview);
    expect(rendered.manifest.url).toBe(context.manifest.url);
    expect(rendered.staticHandlerContext).toBe(context.staticHandlerContext);
    // The build's own manifest is left whole: the next request needs all of it.
    expect(Object.keys(context.manifest.routes)).toHaveLength(5);
  });

  it("hands over everything when there is nothing matched, a match outside the manifest, or lazy route discovery", () => {
    for (const context of [contextOf([]), contextOf(["root", "elsewhere"]), contextOf(["root", "home"], "lazy")]) {
      expect(matchedRoutesOnly(context)).toBe(context);
    }
  });
});
