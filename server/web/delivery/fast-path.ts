import { bucketsLoader, documentLoader, documentsLoader, openApiLoader, singletonLoader } from "./loaders";
import type { DeliveryLoader } from "./route";

/*
 * The delivery API's JSON GET calls answered ahead of React Router (server/web/hot-api.ts): an exhibit app's
 * requests, revalidations most of all, are small and many, and React Router's request handling (matching, its
 * request copies and abort signals) was a good part of their cost. The loaders are the very ones the route modules
 * export (server/delivery/loaders.ts), so the answers are the same; anything this does not recognise exactly
 * (another method, a trailing slash, an encoded character, a `.data` request) goes on to React Router, which
 * answers it through the same loaders. tests/unit/delivery-fast-path.test.ts checks the table against app/routes.ts.
 */

export interface FastRoute {
  /** The path as app/routes.ts declares it. */
  path: string;
  loader: DeliveryLoader;
}

export const FAST_ROUTES: readonly FastRoute[] = [
  { path: "api/v1/delivery/buckets", loader: bucketsLoader },
  { path: "api/v1/delivery/buckets/:slug/documents", loader: documentsLoader },
  { path: "api/v1/delivery/buckets/:slug/documents/:contentId", loader: documentLoader },
  { path: "api/v1/delivery/buckets/:slug/singleton", loader: singletonLoader },
  { path: "api/v1/delivery/openapi.json", loader: openApiLoader },
];

/** A segment taken as it is: no percent-encoding to decode (React Router decodes it; those go there). */
const SEGMENT = "([^/%]+)";
const PREFIX = "/api/v1/delivery/";

const compiled = FAST_ROUTES.map((route) => {
  const names: string[] = [];
  const source = route.path
    .split("/")
    .map((part) => {
      if (!part.startsWith(":")) return part.replaceAll(".", "\\.");
      names.push(part.slice(1));
      return SEGMENT;
    })
    .join("/");
  return { pattern: new RegExp(`^/${source}$`), names, loader: route.loader };
});

/** The loader and params of a path this answers, or null. */
export function matchFastRoute(pathname: string): { loader: DeliveryLoader; params: Record<string, string> } | null {
  if (!pathname.startsWith(PREFIX) || pathname.endsWith(".data")) return null;
  for (const route of compiled) {
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    const params: Record<string, string> = {};
    route.names.forEach((name, index) => (params[name] = match[index + 1] as string));
    return { loader: route.loader, params };
  }
  return null;
}
