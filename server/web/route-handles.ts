import { matchRoutes, type ServerBuild } from "react-router";
import type { RouteHandle } from "@core/route-handle";
import { routeTree } from "./build-routes";

/** A single-fetch request (`/b/x/new.data`, `/_root.data` for `/`) goes to the route of the page's path. */
function pagePath(pathname: string): string {
  if (!pathname.endsWith(".data")) return pathname;
  const path = pathname.slice(0, -".data".length);
  return path === "/_root" ? "/" : path;
}

/**
 * What the route a request goes to declares in its module's `handle`
 * (core/route-handle.ts), found the way React Router will route it: the
 * deepest match of the build's routes. The routes are nested once per build.
 */
export function routeHandles(build: ServerBuild): (pathname: string) => RouteHandle | undefined {
  const tree = routeTree(build.routes);
  return (pathname) => {
    const deepest = matchRoutes(tree, pagePath(pathname), build.basename)?.at(-1);
    return deepest?.route.id ? (build.routes[deepest.route.id]?.module.handle as RouteHandle | undefined) : undefined;
  };
}
