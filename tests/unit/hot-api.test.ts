import { matchRoutes, type RouteObject } from "react-router";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { describe, expect, it } from "vitest";
import routes from "~/routes";
import { hotApiPath } from "@server/web/hot-api";

/** The app's route table as React Router matches it (under the root route), each route named by its module. */
function tree(entries: RouteConfigEntry[]): RouteObject[] {
  return entries.map(
    (entry) => ({ id: entry.file, path: entry.path, index: entry.index, children: entry.children && tree(entry.children) }) as RouteObject,
  );
}
const table: RouteObject[] = [{ id: "root", path: "", children: tree(routes) }];

/** What React Router does with the path: the deepest route's module and its params. */
function routed(pathname: string) {
  const matches = matchRoutes(table, pathname);
  const last = matches?.[matches.length - 1];
  return last ? { module: last.route.id, params: { ...last.params } } : null;
}

const id = "0f0c8f1e-2b1a-4c3d-9e8f-7a6b5c4d3e2f";

describe("hotApiPath: only paths React Router sends to the same module with the same params", () => {
  it.each([
    ["GET", `/api/v1/buckets/artworks/content/${id}/latest`],
    ["GET", `/api/v1/buckets/artworks/content/${id}/${id}`],
    ["GET", `/api/v1/buckets/any/content/${id}/latest`],
    ["GET", `/api/v1/buckets/old_slug-2/content/x/y`],
    ["POST", "/api/v1/buckets/artworks/save"],
    ["POST", "/api/v1/buckets/any/save"],
  ])("%s %s is hot, and routed to its module", (method, pathname) => {
    const hot = hotApiPath(method, pathname);
    expect(hot).not.toBeNull();
    expect(routed(pathname)).toEqual({ module: hot!.module, params: hot!.params });
  });

  it.each([
    ["GET", `/api/v1/buckets/image/content/${id}/latest`],
    ["GET", `/api/v1/buckets/Video/content/${id}/latest`],
    ["GET", `/api/v1/buckets/FILE/content/${id}/latest`],
    ["GET", `/api/v1/buckets/artworks/content/${id}/latest.data`],
    ["GET", `/api/v1/buckets/art%77orks/content/${id}/latest`],
    ["GET", `/api/v1/buckets/artworks/content/${id}/latest/`],
    ["GET", `/API/v1/buckets/artworks/content/${id}/latest`],
    ["GET", "/api/v1/buckets/artworks/save"],
    ["HEAD", `/api/v1/buckets/artworks/content/${id}/latest`],
    ["DELETE", `/api/v1/buckets/artworks/content/${id}/${id}`],
    ["POST", `/api/v1/buckets/artworks/content/${id}/latest`],
    ["POST", "/api/v1/buckets/artworks/save.data"],
    ["POST", "/api/v1/buckets/artworks/schema"],
  ])("%s %s is left to React Router", (method, pathname) => {
    expect(hotApiPath(method, pathname)).toBeNull();
  });
});
