import { matchRoutes, type ServerBuild } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { routeTree } from "@server/web/build-routes";
import { HOT_ROUTES, hotCalls } from "@server/web/hot-api";
import { hotRouteMatcher, type HotRoute } from "@server/web/hot-routes";
import { productionServerBuild } from "@tests/support/server-build";

/*
 * The calls answered ahead of React Router (server/web/hot-api.ts) are named by route id; their matcher is compiled
 * from the server build's routes (server/web/hot-routes.ts). Each path it takes must be one React Router routes to
 * the same route with the same params.
 */

/** What React Router does with the path: the deepest route's id and its params. */
function routed(build: ServerBuild, pathname: string) {
  const last = matchRoutes(routeTree(build.routes), pathname, build.basename)?.at(-1);
  return last ? { id: last.route.id, params: { ...last.params } } : null;
}

const id = "0f0c8f1e-2b1a-4c3d-9e8f-7a6b5c4d3e2f";

describe("the hot calls of the production build", () => {
  let build: ServerBuild;
  let match: ReturnType<typeof hotRouteMatcher>;
  // Importing the production build (a few MB of modules) took over 10 s, the unit hook limit, on a machine loaded ten times over.
  beforeAll(async () => {
    build = await productionServerBuild();
    match = hotRouteMatcher(build, HOT_ROUTES);
  }, 60_000);

  it("compile from the build, every hot route with its loader or action", () => {
    expect(() => hotCalls(build)).not.toThrow();
  });

  it.each([
    ["GET", `/api/v1/buckets/artworks/content/${id}/latest`],
    ["GET", `/api/v1/buckets/artworks/content/${id}/${id}`],
    ["GET", `/api/v1/buckets/any/content/${id}/latest`],
    ["GET", `/api/v1/buckets/old_slug-2/content/x/y`],
    ["GET", `/api/v1/buckets/images/content/${id}/latest`],
    ["POST", "/api/v1/buckets/artworks/save"],
    ["POST", "/api/v1/buckets/any/save"],
    ["GET", "/api/v1/delivery/buckets"],
    ["GET", "/api/v1/delivery/buckets/art-works/documents"],
    ["GET", `/api/v1/delivery/buckets/art-works/documents/${id}`],
    ["GET", "/api/v1/delivery/buckets/art_works.2/documents/not-a-uuid"],
    ["GET", "/api/v1/delivery/buckets/home/singleton"],
    ["GET", "/api/v1/delivery/openapi.json"],
  ])("%s %s is hot, and React Router routes it to the same route with the same params", (method, pathname) => {
    const hot = match(method, pathname);
    expect(hot).not.toBeNull();
    expect(hot!.route.method).toBe(method);
    expect(routed(build, pathname)).toEqual({ id: hot!.route.id, params: hot!.params });
  });

  it.each([
    // A media bucket's own route (app/routes.ts), in any case, as React Router matches.
    ["GET", `/api/v1/buckets/image/content/${id}/latest`],
    ["GET", `/api/v1/buckets/Video/content/${id}/latest`],
    ["GET", `/api/v1/buckets/FILE/content/${id}/latest`],
    // What React Router would decode, strip or match case-insensitively.
    ["GET", `/api/v1/buckets/artworks/content/${id}/latest.data`],
    ["GET", `/api/v1/buckets/art%77orks/content/${id}/latest`],
    ["GET", `/api/v1/buckets/artworks/content/${id}/latest/`],
    ["GET", `/API/v1/buckets/artworks/content/${id}/latest`],
    ["GET", "/api/v1/delivery/buckets/"],
    ["GET", "/api/v1/delivery/buckets/a%20b/documents"],
    ["GET", `/api/v1/delivery/buckets/art/documents/${id}.data`],
    // Other routes, and other methods.
    ["GET", "/api/v1/delivery/buckets/art/documents/x/y"],
    ["GET", "/api/v1/delivery/media/x/original"],
    ["GET", "/api/v1/delivery/bundle"],
    ["GET", "/api/v1/delivery/openapi"],
    ["GET", "/api/v1/buckets/art/schema"],
    ["GET", "/api/v1/buckets/artworks/save"],
    ["GET", "/b/artworks"],
    ["HEAD", `/api/v1/buckets/artworks/content/${id}/latest`],
    ["OPTIONS", "/api/v1/delivery/buckets"],
    ["DELETE", `/api/v1/buckets/artworks/content/${id}/${id}`],
    ["POST", `/api/v1/buckets/artworks/content/${id}/latest`],
    ["POST", "/api/v1/buckets/artworks/save.data"],
    ["POST", "/api/v1/delivery/buckets"],
  ])("%s %s is left to React Router", (method, pathname) => {
    expect(match(method, pathname)).toBeNull();
  });
});

/** A server build's routes with only what matching reads, under a root route; modules with a loader and action. */
function buildOf(routes: Array<{ id: string; path?: string; caseSensitive?: boolean }>): ServerBuild {
  const module = { loader: () => "loaded", action: () => "acted" };
  const manifest = [{ id: "root", path: "" }, ...routes.map((route) => ({ ...route, parentId: "root" }))];
  return {
    basename: "/",
    routes: Object.fromEntries(manifest.map((route) => [route.id, { ...route, module }])),
  } as unknown as ServerBuild;
}

const read: HotRoute = { id: "read", method: "GET" };
const readRoute = { id: "read", path: "api/:slug/content/:contentId" };

describe("hotRouteMatcher: the matcher follows the route table", () => {
  it("takes a route's path from the build, wherever app/routes.ts moves it", () => {
    const moved = hotRouteMatcher(buildOf([{ id: "read", path: "api/v2/:slug/read/:contentId" }]), [read]);
    expect(moved("GET", "/api/v2/art/read/1")).toEqual({
      route: read,
      params: { slug: "art", contentId: "1" },
      pattern: "/api/v2/:slug/read/:contentId",
    });
    expect(moved("GET", "/api/art/content/1")).toBeNull();
  });

  it("leaves to React Router the params a higher-ranked route takes, whatever routes the table adds", () => {
    const build = buildOf([
      readRoute,
      { id: "audio", path: "api/audio/content/:contentId" },
      { id: "exact", path: "api/Pinned/content/:contentId", caseSensitive: true },
      { id: "one", path: "api/home/content/one" },
      { id: "rest", path: "api/*" },
    ]);
    const match = hotRouteMatcher(build, [read]);
    for (const path of ["/api/audio/content/1", "/api/AUDIO/content/1", "/api/Pinned/content/1", "/api/home/content/one"]) {
      expect(routed(build, path)?.id, path).not.toBe("read");
      expect(match("GET", path), path).toBeNull();
    }
    for (const path of ["/api/art/content/1", "/api/pinned/content/1", "/api/home/content/two", "/api/audios/content/1"]) {
      expect(routed(build, path)?.id, path).toBe("read");
      expect(match("GET", path)?.params, path).toEqual(routed(build, path)?.params);
    }
  });

  it("fails at start when the build lacks a hot route, or React Router would never route to it", () => {
    expect(() => hotRouteMatcher(buildOf([{ id: "renamed", path: readRoute.path }]), [read])).toThrow(
      /hot route read is not in the server build/,
    );
    const shadowed = buildOf([{ id: "first", path: "api/:kind/content/:id?" }, readRoute]);
    expect(() => hotRouteMatcher(shadowed, [read])).toThrow(/routes every path of the hot route read to first/);
    expect(() => hotRouteMatcher(buildOf([{ id: "read", path: "api/:slug?" }]), [read])).toThrow(/optional or splat/);
  });

  it("answers with the route module's own loader or action, as React Router's resource route would", async () => {
    const call = hotCalls(buildOf([readRoute, { id: "save", path: "api/:slug/save" }]), [read, { id: "save", method: "POST" }]);
    const context = {} as Parameters<typeof call>[2];
    const get = new Request("http://x/api/art/content/1");
    expect(await call(get, new URL(get.url), context)?.then((answer) => answer.text())).toBe("loaded");
    const post = new Request("http://x/api/art/save", { method: "POST" });
    expect(await call(post, new URL(post.url), context)?.then((answer) => answer.text())).toBe("acted");
    expect(call(new Request("http://x/api/art/other"), new URL("http://x/api/art/other"), context)).toBeNull();
    const withoutAction = buildOf([{ id: "save", path: "api/:slug/save" }]);
    Object.assign(withoutAction.routes.save!, { module: { loader: () => "loaded" } });
    expect(() => hotCalls(withoutAction, [{ id: "save", method: "POST" }])).toThrow(/hot route save has no action/);
  });
});
