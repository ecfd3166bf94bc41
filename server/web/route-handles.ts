import type { ServerBuild } from "react-router";
import type { RouteHandle } from "../../core/route-handle";
import { routeMatcher } from "./route-match";

/** A single-fetch request (`/b/x/new.data`, `/_root.data` for `/`) goes to the route of the page's path. */
function pagePath(pathname: string): string {
  if (!pathname.endsWith(".data")) return pathname;
  const path = pathname.slice(0, -".data".length);
  return path === "/_root" ? "/" : path;
}

/**
 * What the route a request goes to declares in its module's `handle`
 * (core/route-handle.ts), found the way React Router will route it: the
 * deepest match of the build's routes (server/web/route-match.ts).
 */
export function routeHandles(build: ServerBuild): (pathname: string) => RouteHandle | undefined {
  const match = routeMatcher(build);
  return (pathname) => match(pagePath(pathname))?.module.handle as RouteHandle | undefined;
}
