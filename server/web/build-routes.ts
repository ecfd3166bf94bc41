import type { RouteObject, ServerBuild } from "react-router";

/*
 * The server build's flat route manifest (its `routes`: each route's id, parentId and path relative to its parent)
 * read two ways: as the nested routes React Router's matchRoutes walks, and as each route's full path.
 */

/** The build's routes nested as matchRoutes walks them (index routes have no children). */
export function routeTree(routes: ServerBuild["routes"], parentId?: string): RouteObject[] {
  return Object.values(routes).flatMap((route): RouteObject[] => {
    if (!route || route.parentId !== parentId) return [];
    const { id, path, caseSensitive } = route;
    return [route.index ? { id, path, caseSensitive, index: true } : { id, path, caseSensitive, children: routeTree(routes, id) }];
  });
}

/** A route's whole path, its parents' paths included, as segments ("api/v1/buckets/:slug/save" → five). */
export function fullSegments(routes: ServerBuild["routes"], id: string): string[] {
  const segments: string[] = [];
  for (let route = routes[id]; route; route = route.parentId ? routes[route.parentId] : undefined) {
    if (route.path) segments.unshift(...route.path.split("/").filter(Boolean));
  }
  return segments;
}
