import { matchRoutes } from "react-router";
import { describe, expect, it } from "vitest";
import routes from "~/routes";
import { FAST_ROUTES, matchFastRoute } from "@server/web/delivery/fast-path";
import { hotCall } from "@server/web/hot-api";

/*
 * The delivery API's fast path (server/delivery/fast-path.ts) answers some paths ahead of React Router: each must
 * be the route React Router would pick, with the same params, and run the loader that route's module exports.
 */

interface RouteEntry {
  path?: string;
  file: string;
  index?: boolean;
  children?: RouteEntry[];
}

const entries = routes as RouteEntry[];
const routeObjects = entries.map((entry) => ({ path: entry.path, index: entry.index, id: entry.file }));

const uuid = "0b9f6c1e-6f2a-4c1e-9a55-3d2f5e7a9b10";
const paths = [
  "/api/v1/delivery/buckets",
  "/api/v1/delivery/buckets/art-works/documents",
  `/api/v1/delivery/buckets/art-works/documents/${uuid}`,
  "/api/v1/delivery/buckets/art_works.2/documents/not-a-uuid",
  "/api/v1/delivery/buckets/home/singleton",
  "/api/v1/delivery/openapi.json",
  // Left to React Router:
  "/api/v1/delivery/buckets/",
  "/api/v1/delivery/buckets/a%20b/documents",
  `/api/v1/delivery/buckets/art/documents/${uuid}.data`,
  "/api/v1/delivery/buckets/art/documents/x/y",
  "/api/v1/delivery/media/x/original",
  "/api/v1/delivery/bundle",
  "/api/v1/delivery/openapi",
  "/API/v1/delivery/buckets",
  "/api/v1/buckets/art/schema",
];

describe("the delivery API's fast path", () => {
  it("matches only what React Router routes to the same module, with the same params", () => {
    let matched = 0;
    for (const path of paths) {
      const fast = matchFastRoute(path);
      if (!fast) continue;
      matched += 1;
      const last = matchRoutes(routeObjects, path)?.at(-1);
      const route = FAST_ROUTES.find((entry) => entry.loader === fast.loader);
      expect(last?.route.path, path).toBe(route?.path);
      expect(fast.params, path).toEqual(last?.params);
    }
    expect(matched).toBe(6);
    expect(matchFastRoute("/api/v1/delivery/buckets/")).toBeNull();
    expect(matchFastRoute("/api/v1/delivery/buckets/a%20b/documents")).toBeNull();
    expect(matchFastRoute(`/api/v1/delivery/buckets/art/documents/${uuid}.data`)).toBeNull();
  });

  it("runs the loader the route module exports", async () => {
    for (const route of FAST_ROUTES) {
      const entry = entries.find((candidate) => candidate.path === route.path);
      expect(entry, route.path).toBeDefined();
      const module = (await import(/* @vite-ignore */ `../../app/${entry!.file}`)) as { loader?: unknown };
      expect(module.loader, route.path).toBe(route.loader);
    }
  });

  it("leaves other methods to React Router", () => {
    for (const method of ["HEAD", "OPTIONS", "POST"]) expect(hotCall(method, "/api/v1/delivery/buckets"), method).toBeNull();
    expect(hotCall("GET", "/api/v1/delivery/buckets")).toBeTypeOf("function");
  });
});
