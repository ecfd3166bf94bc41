import type { AppLoadContext } from "react-router";
import { matchFastRoute } from "@server/web/delivery/fast-path";
import { readDocumentCall, saveDocumentCall } from "./content-calls";
import { apiRoute } from "./respond";

/*
 * The content API's hottest calls (a document's read and its save) answered without React Router's request
 * handler: they call the same functions as their route modules (server/web/content-calls.ts), inside the same
 * apiRoute, so checks and answers are the same; only React Router's matching and data machinery (0.3 ms of a
 * read's CPU on PostgreSQL, docs/benchmarks.md) is skipped. A path is taken here only when the route table would
 * certainly send it to the same module with the same params: plain segments (no %-escapes, no ".data"), the fixed
 * parts in lower case, and not a media bucket's own route (image, video, file: app/routes.ts). Anything else goes
 * to React Router. The delivery API's GET calls join them (server/delivery/fast-path.ts has their table).
 */

type HotCall = (request: Request, context: AppLoadContext) => Promise<Response>;

const SEGMENT = "([A-Za-z0-9_-]+)";
const SAVE = new RegExp(`^/api/v1/buckets/${SEGMENT}/save$`);
const READ = new RegExp(`^/api/v1/buckets/${SEGMENT}/content/${SEGMENT}/${SEGMENT}$`);
/** Matched by their own routes, case-insensitively as React Router matches. */
const MEDIA_SLUGS = new Set(["image", "video", "file"]);

const read = apiRoute(
  ({
    request,
    context,
    params,
  }: {
    request: Request;
    context: AppLoadContext;
    params: { slug: string; contentId: string; versionId: string };
  }) => readDocumentCall(request, context, params),
);
const save = apiRoute(({ request, context, params }: { request: Request; context: AppLoadContext; params: { slug: string } }) =>
  saveDocumentCall(request, context, params),
);

interface HotPath {
  /** The route module (app/routes.ts) React Router would answer with: tests/unit/hot-api.test.ts holds us to it. */
  module: string;
  params: Record<string, string>;
  call: HotCall;
}

/** The hot call a method and path name, with its route's module and params; else null (React Router answers). */
export function hotApiPath(method: string, pathname: string): HotPath | null {
  if (method === "GET") {
    const match = READ.exec(pathname);
    if (!match) return null;
    const [, slug = "", contentId = "", versionId = ""] = match;
    if (MEDIA_SLUGS.has(slug.toLowerCase())) return null;
    const params = { slug, contentId, versionId };
    const call: HotCall = (request, context) => answerAsReactRouter(read({ request, context, params }), request, context);
    return { module: "routes/api/bucket-content.ts", params, call };
  }
  if (method === "POST") {
    const match = SAVE.exec(pathname);
    if (!match) return null;
    const params = { slug: match[1] ?? "" };
    const call: HotCall = (request, context) => answerAsReactRouter(save({ request, context, params }), request, context);
    return { module: "routes/api/bucket-save.ts", params, call };
  }
  return null;
}

/** The hot call for a method and path name: the content API's above, or a delivery API GET; else null. */
export function hotCall(method: string, pathname: string): HotCall | null {
  const content = hotApiPath(method, pathname);
  if (content) return content.call;
  const delivery = method === "GET" ? matchFastRoute(pathname) : null;
  if (!delivery) return null;
  return (request, context) => answerAsReactRouter(delivery.loader({ request, context, params: delivery.params }), request, context);
}

/**
 * What React Router's resource-route handling answers for what apiRoute lets through: a thrown Response as it is;
 * a thrown `data()` (the database unavailable: 503) as {message} JSON with its status; anything else logged
 * (as app/entry.server.tsx handleError does) and answered 500 "Unexpected Server Error".
 */
async function answerAsReactRouter(answer: Promise<Response>, request: Request, context: AppLoadContext): Promise<Response> {
  try {
    return await answer;
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
