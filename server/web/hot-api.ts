import type { AppLoadContext, LoaderFunctionArgs, ServerBuild } from "react-router";
import { hotRouteMatcher, type HotRoute } from "./hot-routes";

/*
 * The hottest JSON calls answered without React Router's request handler: the content API's document read and save,
 * and the delivery API's reads (an exhibit app's requests, revalidations most of all, are small and many). React
 * Router's matching and data machinery was a good part of their CPU (docs/benchmarks.md, "the hot calls
 * re-measured": 20-40 % of a row). They are named here by route id; their paths, params and the paths other routes
 * take from them come from the server build (app/routes.ts), compiled once (server/web/hot-routes.ts). The answer
 * is the route module's own loader or action, called with the same load context, so checks and answers are the
 * same; anything the matcher does not take for certain goes to React Router.
 */

export const HOT_ROUTES: readonly HotRoute[] = [
  // server/web/content-calls.ts
  { id: "routes/api/bucket-content", method: "GET" },
  { id: "routes/api/bucket-save", method: "POST" },
  // server/web/delivery/loaders.ts
  { id: "routes/api/delivery/buckets", method: "GET" },
  { id: "routes/api/delivery/documents", method: "GET" },
  { id: "routes/api/delivery/document", method: "GET" },
  { id: "routes/api/delivery/singleton", method: "GET" },
  { id: "routes/api/delivery/openapi", method: "GET" },
];

type Handler = (args: LoaderFunctionArgs<AppLoadContext>) => unknown;
/** A request's answer from its hot route, or null: React Router answers it. */
export type HotCall = (request: Request, url: URL, context: AppLoadContext) => Promise<Response> | null;

/**
 * The hot calls of a server build, answered as their routes would answer them. Throws when the build lacks a hot
 * route or its loader (GET) or action (POST).
 */
export function hotCalls(build: ServerBuild, routes: readonly HotRoute[] = HOT_ROUTES): HotCall {
  const match = hotRouteMatcher(build, routes);
  const handlers = new Map<HotRoute, Handler>();
  for (const route of routes) {
    const module = build.routes[route.id]?.module;
    const handler = route.method === "GET" ? module?.loader : module?.action;
    if (typeof handler !== "function") throw new Error(`The hot route ${route.id} has no ${route.method === "GET" ? "loader" : "action"}.`);
    handlers.set(route, handler as Handler);
  }
  return (request, url, context) => {
    const found = match(request.method, url.pathname);
    if (!found) return null;
    const handler = handlers.get(found.route) as Handler;
    return answerAsReactRouter(handler, { request, url, params: found.params, pattern: found.pattern, context });
  };
}

/**
 * What React Router's resource-route handling answers (its handleResourceRequest): a Response as it is, a string as
 * text, another value as JSON; a thrown Response as it is; a thrown `data()` (the database unavailable: 503) as
 * {message} JSON with its status; anything else logged (as app/entry.server.tsx handleError does) and answered
 * 500 "Unexpected Server Error".
 */
async function answerAsReactRouter(handler: Handler, args: LoaderFunctionArgs<AppLoadContext>): Promise<Response> {
  const { request, context } = args;
  try {
    const result = await handler(args);
    if (result instanceof Response) return result;
    return typeof result === "string" ? new Response(result) : Response.json(result);
  } catch (error) {
    if (error instanceof Response) return error;
    if (!request.signal.aborted) context.logger.error({ err: error, path: new URL(request.url).pathname }, "unexpected error");
    const message = "Unexpected Server Error";
    if (isDataWithInit(error)) return Response.json({ message }, { status: error.init?.status ?? 500, statusText: error.init?.statusText });
    return new Response(message, { status: 500, headers: { "Content-Type": "text/plain" } });
  }
}

const isDataWithInit = (error: unknown): error is { init?: ResponseInit } =>
  typeof error === "object" && error !== null && (error as { type?: unknown }).type === "DataWithResponseInit";
