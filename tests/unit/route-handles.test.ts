import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { routeHandles } from "@server/web/route-handles";

/** A server build's route manifest with only what matching reads. */
function buildOf(routes: Array<{ id: string; parentId?: string; path?: string; index?: boolean; handle?: unknown }>): ServerBuild {
  return {
    basename: "/",
    routes: Object.fromEntries(routes.map((route) => [route.id, { ...route, module: { handle: route.handle } }])),
  } as unknown as ServerBuild;
}

const streams = { streamsBody: true };
const build = buildOf([
  { id: "root", path: "" },
  { id: "home", parentId: "root", index: true, handle: { streamsBody: "not for /" } },
  { id: "bucket", parentId: "root", path: "b/:bucket", handle: streams },
  { id: "overview", parentId: "bucket", index: true },
  { id: "new", parentId: "bucket", path: "new", handle: streams },
  { id: "latest", parentId: "bucket", path: ":contentId/latest", handle: streams },
  { id: "upload", parentId: "root", path: "api/v1/media/:kind/upload", handle: streams },
  { id: "api", parentId: "root", path: "api/*" },
]);
const handleOf = routeHandles(build);

describe("routeHandles: the handle of the deepest route a path matches", () => {
  it.each([
    ["/b/art/new", streams],
    ["/b/art/new.data", streams],
    ["/b/art/0f0/latest", streams],
    ["/b/art/0f0/latest.data", streams],
    ["/api/v1/media/image/upload", streams],
    ["/api/v1/media/image/upload/", streams],
    // Only the deepest match counts: a parent's handle does not exempt its children.
    ["/b/art", undefined],
    ["/b/art.data", undefined],
    ["/api/v1/media/image/crop/1", undefined],
    ["/elsewhere", undefined],
    ["/_root.data", { streamsBody: "not for /" }],
  ])("%s", (path, expected) => {
    expect(handleOf(path)).toEqual(expected);
  });
});
