import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import type { RouteHandle } from "@core/route-handle";

/** The build's flat route manifest as the nested routes matchRoutes walks (index routes have no children). */
function routeTree(routes: ServerBuild["routes"], parentId?: string): RouteObject[] {
  return Object.values(routes).flatMap((route): RouteObject[] => {
    if (!route || route.parentId !== parentId) return [];
    const { id, path, caseSensitive } = route;
    return [route.index ? { id, path, caseSensitive, index: true } : { id, path, caseSensitive, children: routeTree(routes, id) }];
  });
}

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
