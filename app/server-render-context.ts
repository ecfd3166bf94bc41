import type { EntryContext } from "react-router";

/**
 * React Router's ServerRouter rebuilds its route objects from the manifest on every render, all 87 of them, though a
 * server render only ever uses the request's matches (root to leaf). With route discovery "initial" the browser
 * loads the whole manifest from its own file (manifest.url), so the render may be handed the matched routes alone.
 * Without matches (none to render) it gets everything, as before.
 */
export function matchedRoutesOnly(context: EntryContext): EntryContext {
  const { matches } = context.staticHandlerContext;
  if (matches.length === 0 || context.routeDiscovery.mode !== "initial") return context;
  const routes: EntryContext["manifest"]["routes"] = {};
  for (const { route } of matches) {
    const entry = context.manifest.routes[route.id];
    if (!entry) return context;
    routes[route.id] = entry;
  }
  return { ...context, manifest: { ...context.manifest, routes } };
}
