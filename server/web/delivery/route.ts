import { createHash } from "node:crypto";
import type { Services } from "@server/services";
import type { Db } from "@server/db/client";
import { anyClientAllowsOrigin, authenticateApiClient, type ApiClient } from "@server/accounts/api-clients";
import { bearerToken } from "@server/security/bearer";
import { Problem, unauthorized } from "@server/delivery/problem";
import { problemLocale, problemResponse } from "./problem-answer";
import { limiterOf } from "@server/delivery/rate-limit";
import type { ReadContext } from "@server/delivery/read";

/*
 * What every delivery route shares (docs/delivery.md): the bearer token of an API client (401 problem otherwise),
 * the per-client rate limit (429 with Retry-After), CORS for the client's allowed origins, and the answer: JSON
 * with an ETag (a hash of the body; 304 for a matching If-None-Match) and Cache-Control: private, no-cache (a
 * cache keeps it, and asks again with the ETag before using it). Refusals are problem details.
 */

export interface RouteArgs {
  request: Request;
  context: Services;
  params: Record<string, string | undefined>;
}

export interface DeliveryArgs<Found = undefined> extends RouteArgs {
  url: URL;
  client: ApiClient;
  read: ReadContext;
  /** What the route's own authentication read with the client (see Authenticate). */
  found: Found;
}

/**
 * How a route finds the client of a bearer token (null: 401). By default by the token alone; a route may read what
 * it needs in the same statement (one round trip: the single-document call).
 */
export type Authenticate<Found> = (
  db: Db,
  token: string,
  args: RouteArgs & { url: URL },
) => Promise<{ client: ApiClient; found: Found } | null>;

const byTokenAlone: Authenticate<undefined> = async (db, token) => {
  const client = await authenticateApiClient(db, token);
  return client && { client, found: undefined };
};

const ALLOWED_METHODS = "GET, HEAD, OPTIONS";
const CACHE_CONTROL = "private, no-cache";
/** A preview (version=newest, release=…: server/delivery/view.ts) is kept by no cache at all. */
const PREVIEW_CACHE_CONTROL = "private, no-store";
/** What a page's script may read of an answer, beyond the CORS-safelisted headers. */
const EXPOSED_HEADERS = "ETag, Retry-After, Content-Language";

function corsHeaders(origin: string): Record<string, string> {
  return { "Access-Control-Allow-Origin": origin, "Access-Control-Expose-Headers": EXPOSED_HEADERS, Vary: "Origin, Authorization" };
}

const publicOrigins = new WeakMap<object, string>();
/** The origin media URLs start with: PUBLIC_URL's (parsed once per configuration), else the request's. */
function baseOf(url: URL, config: Services["config"]): string {
  if (!config.PUBLIC_URL) return url.origin;
  let origin = publicOrigins.get(config);
  if (origin === undefined) publicOrigins.set(config, (origin = new URL(config.PUBLIC_URL).origin));
  return origin;
}

/** A strong ETag of a body: its SHA-1, base64url. */
export const etagOf = (body: string) => `"${createHash("sha1").update(body).digest("base64url")}"`;

const opaqueTag = (tag: string) => tag.trim().replace(/^W\//, "");

/** Whether If-None-Match names this ETag (or is *); compared weakly, as RFC 9110 says for If-None-Match. */
export function notModified(request: Request, etag: string): boolean {
  const header = request.headers.get("if-none-match");
  if (!header) return false;
  const wanted = opaqueTag(etag);
  return header.trim() === "*" || header.split(",").some((tag) => opaqueTag(tag) === wanted);
}

const cacheHeaders = (etag: string, headers: Record<string, string>, preview: boolean) => ({
  ETag: etag,
  "Cache-Control": preview ? PREVIEW_CACHE_CONTROL : CACHE_CONTROL,
  Vary: "Origin, Authorization",
  ...headers,
});

/** 304: the client's copy with this ETag is the answer. */
export const notModifiedAnswer = (etag: string, headers: Record<string, string> = {}, preview = false) =>
  new Response(null, { status: 304, headers: cacheHeaders(etag, headers, preview) });

/**
 * A JSON answer with its ETag (default: the hash of the body), or 304 when the client has it. `preview` (a view's
 * key, server/delivery/view.ts) marks a preview answer: Cache-Control private, no-store, and a body's ETag hashed
 * with the view, so that it never equals the published answer's.
 */
export function jsonAnswer(
  request: Request,
  value: unknown,
  headers: Record<string, string> = {},
  knownEtag?: string,
  preview?: string,
): Response {
  const isPreview = preview !== undefined;
  if (knownEtag !== undefined && notModified(request, knownEtag)) return notModifiedAnswer(knownEtag, headers, isPreview);
  const body = JSON.stringify(value);
  const etag = knownEtag ?? (isPreview ? etagOf(`preview ${preview}\n${body}`) : etagOf(body));
  if (notModified(request, etag)) return notModifiedAnswer(etag, headers, isPreview);
  return new Response(body, {
    status: 200,
    headers: { "Content-Type": "application/json; charset=utf-8", ...cacheHeaders(etag, headers, isPreview) },
  });
}

export type DeliveryLoader = (args: RouteArgs) => Promise<Response>;

/** A GET route of the delivery API: the handler answers a value (sent as JSON with an ETag) or a Response. */
export function deliveryLoader(handler: (args: DeliveryArgs) => Promise<unknown>): DeliveryLoader;
export function deliveryLoader<Found>(
  handler: (args: DeliveryArgs<Found>) => Promise<unknown>,
  authenticate: Authenticate<Found>,
): DeliveryLoader;
export function deliveryLoader<Found>(
  handler: (args: DeliveryArgs<Found>) => Promise<unknown>,
  authenticate?: Authenticate<Found>,
): DeliveryLoader {
  const authenticated = (authenticate ?? byTokenAlone) as Authenticate<Found>;
  return async (args: RouteArgs): Promise<Response> => {
    const { request, context } = args;
    // React Router runs the loader for OPTIONS (only mutations go to the action).
    if (request.method === "OPTIONS") return preflight(request, context);
    const origin = request.headers.get("origin");
    let cors: Record<string, string> = {};
    try {
      const url = new URL(request.url);
      const token = bearerToken(request);
      const found = token ? await authenticated(context.db, token, { ...args, url }) : null;
      if (!found) {
        // A page of an allowed origin should be able to read the 401 (to ask for a new token).
        if (origin && (await anyClientAllowsOrigin(context.db, origin))) cors = corsHeaders(origin);
        throw unauthorized();
      }
      const { client } = found;
      if (origin && client.allowedOrigins.includes(origin)) cors = corsHeaders(origin);
      const retryAfter = limiterOf(context.config).take(client.id);
      if (retryAfter > 0) {
        const limit = context.config.DELIVERY_RATE_LIMIT_PER_MINUTE;
        throw new Problem(
          429,
          "rate-limited",
          "delivery.problems.rateLimited.detail",
          { limit, seconds: retryAfter },
          { headers: { "Retry-After": String(retryAfter) } },
        );
      }
      const read: ReadContext = { db: context.db, client, config: context.config, base: baseOf(url, context.config) };
      const result = await handler({ ...args, url, client, read, found: found.found });
      if (result instanceof Response) {
        for (const [name, value] of Object.entries(cors)) result.headers.set(name, value);
        return result;
      }
      return jsonAnswer(request, result, cors);
    } catch (error) {
      if (error instanceof Problem) return problemResponse(error, problemLocale(request, context.config.DEFAULT_LOCALE), cors);
      throw error;
    }
  };
}

/**
 * A CORS preflight (OPTIONS) is answered for an origin that some live client allows: a preflight carries no token,
 * so the actual request is checked again against its own client's origins.
 */
export async function preflight(request: Request, context: Services): Promise<Response> {
  const origin = request.headers.get("origin");
  const headers: Record<string, string> = { Allow: ALLOWED_METHODS, Vary: "Origin" };
  if (origin && (await anyClientAllowsOrigin(context.db, origin))) {
    Object.assign(headers, {
      "Access-Control-Allow-Origin": origin,
      "Access-Control-Allow-Methods": ALLOWED_METHODS,
      "Access-Control-Allow-Headers": "Authorization, If-None-Match, Accept-Language",
      "Access-Control-Max-Age": "600",
    });
  }
  return new Response(null, { status: 204, headers });
}

/** Methods other than GET, HEAD and OPTIONS: 405. */
export function deliveryAction() {
  return async ({ request, context }: RouteArgs): Promise<Response> => {
    if (request.method === "OPTIONS") return preflight(request, context);
    const locale = problemLocale(request, context.config.DEFAULT_LOCALE);
    return problemResponse(new Problem(405, "method-not-allowed", "delivery.problems.methodNotAllowed.detail", { allow: "GET" }), locale, {
      Allow: ALLOWED_METHODS,
    });
  };
}
