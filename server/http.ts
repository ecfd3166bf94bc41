import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequestListener, type ClientAddress } from "@remix-run/node-fetch-server";
import { createRequestHandler, data, type AppLoadContext, type ServerBuild } from "react-router";
import { createCookieSessionStorage } from "react-router";
import { RemixI18Next } from "remix-i18next/server";
import sirv from "sirv";
import type { SessionData } from "./web/context";
import type { MediaServices } from "./services";
import { normalizeLocale, SUPPORTED_LOCALES } from "@core/locales";
import { translate, type MessageKey, type MessageParams } from "@core/messages";
import type { Config } from "./config";
import { DatabaseUnavailableError, type Db, type Queryable } from "./db/client";
import type { Logger } from "./logger";
import type { ScreenTable } from "@core/content/screen-table";
import { isCrossSiteRequest } from "./security/csrf";
import { createSignedCookie } from "./security/signed-cookie";
import { pooledRandomBytes } from "./security/random-pool";
import { BASE_SECURITY_HEADERS, contentSecurityPolicy } from "./security/headers";
import { SESSION_COOKIE_NAME, SESSION_MAX_AGE_SECONDS } from "./accounts/sessions";
import { bearerToken } from "./security/bearer";
import { routeHandles } from "./web/route-handles";
import { compressResponse } from "./web/compress";
import { hotCalls } from "./web/hot-api";
import { isMultipart } from "./web/form-post";
import { RequestDrain } from "./web/drain";
import { discardUnreadBody, MAX_BODY_BYTES, readWithinLimit } from "./web/body-limit";
import type { PresenceHub } from "./presence/hub";
import type { ImportRunner } from "./content/import-runner";

export interface HttpAppOptions {
  build: ServerBuild | (() => Promise<ServerBuild>);
  db: Db;
  config: Config;
  logger: Logger;
  version: string;
  media: MediaServices;
  screens: ScreenTable;
  presence: PresenceHub;
  imports: ImportRunner;
  clientDir?: string;
  mode?: "production" | "development";
}

/*
 * The HTTP front of a server: static assets, health and readiness, the cross-site and body-size refusals, then React
 * Router's handler (or a hot call) with the request's context, and the security headers, compression and request log
 * on every answer.
 */

/** Loaders see a lost database as a 503 page, not a crash. */
function answer503WhenUnavailable(db: Db): Db {
  const rethrow = (error: unknown): never => {
    if (error instanceof DatabaseUnavailableError) throw data({ key: "errors.databaseUnavailable" }, { status: 503 });
    throw error;
  };
  const wrap = (target: Queryable): Queryable => ({
    query: <T>(sql: string, params?: unknown[]) => target.query<T>(sql, params).catch(rethrow),
    exec: (sql) => target.exec(sql).catch(rethrow),
  });
  return { ...db, ...wrap(db), transaction: (fn) => db.transaction(fn).catch(rethrow), close: () => db.close() };
}

/**
 * The client's address. Behind TRUST_PROXY reverse proxies, the address the
 * nearest of them saw, from X-Forwarded-For (the rightmost entries are the
 * ones our own proxies wrote; anything further left is the client's word).
 */
export function clientAddressOf(request: Request, socketAddress: string, trustedProxies: number): string {
  if (trustedProxies === 0) return socketAddress;
  const forwarded = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  return forwarded[forwarded.length - trustedProxies] ?? socketAddress;
}

function textResponse(status: number, message: string): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/** The response itself, or a copy when its headers are immutable (Response.redirect, Response.error, fetch's). */
function withMutableHeaders(response: Response): Response {
  try {
    response.headers.delete("x-vitrine-mutable");
    return response;
  } catch {
    return new Response(response.body, response);
  }
}

export function createHttpApp(options: HttpAppOptions) {
  const { config, logger, db } = options;
  const mode = options.mode ?? "production";
  // A build object (production) is derived once; a build function (the dev server) is re-read per request.
  const handleDocument = createRequestHandler(options.build, mode);
  const sessionStorage = createCookieSessionStorage<SessionData>({
    cookie: createSignedCookie(SESSION_COOKIE_NAME, {
      httpOnly: true,
      sameSite: "lax",
      secure: config.secureCookies,
      path: "/",
      maxAge: SESSION_MAX_AGE_SECONDS,
      secrets: config.acceptedSessionSecrets,
    }),
  });
  const languageDetector = new RemixI18Next({
    detection: { supportedLanguages: [...SUPPORTED_LOCALES], fallbackLanguage: config.DEFAULT_LOCALE, order: ["header"] },
  });
  const contextDb = answer503WhenUnavailable(db);
  // The hottest JSON calls (the content API's read and save, the delivery API's GETs) skip React Router's request
  // handling (server/web/hot-api.ts), compiled from the build's routes once; in development React Router serves
  // them, so edited modules reload.
  const hotCall = mode === "production" && typeof options.build !== "function" ? hotCalls(options.build) : null;

  /** A refusal made before the session is read: in the language the browser asks for. */
  async function refusalText(request: Request, key: MessageKey, params: MessageParams = {}): Promise<string> {
    const locale = normalizeLocale(await languageDetector.getLocale(request).catch(() => null)) ?? config.DEFAULT_LOCALE;
    return translate(locale, key, params);
  }
  // A build object (production) is looked up once; a build function (the dev server) per request, by build.
  const handlesByBuild = new WeakMap<ServerBuild, ReturnType<typeof routeHandles>>();
  async function routeHandleOf(pathname: string) {
    const build = typeof options.build === "function" ? await options.build() : options.build;
    let handles = handlesByBuild.get(build);
    if (!handles) handlesByBuild.set(build, (handles = routeHandles(build)));
    return handles(pathname);
  }

  /**
   * A multipart body whose route streams it (its module's handle says streamsBody: uploads, the edit form
   * with media fields) is left to that route's own limits: its files stream to disk and its text fields are
   * limited while they are read. Any other body is limited here.
   */
  async function streamsItsBody(request: Request, url: URL): Promise<boolean> {
    return (
      request.method !== "GET" &&
      request.method !== "HEAD" &&
      isMultipart(request) &&
      (await routeHandleOf(url.pathname))?.streamsBody === true
    );
  }

  async function healthz(): Promise<Response> {
    try {
      await db.query("SELECT 1");
      return Response.json({ status: "ok", database: "ok", databaseKind: db.kind, version: options.version });
    } catch {
      return Response.json({ status: "error", database: "unavailable", databaseKind: db.kind, version: options.version }, { status: 503 });
    }
  }

  const drain = new RequestDrain();

  /** Readiness, for a load balancer: 503 once the server is stopping (healthz stays its liveness) or without its database. */
  async function readyz(): Promise<Response> {
    if (drain.isDraining) return Response.json({ status: "stopping" }, { status: 503 });
    const health = await healthz();
    return health.ok ? Response.json({ status: "ready" }) : Response.json({ status: "unavailable" }, { status: 503 });
  }

  async function route(request: Request, client: ClientAddress, requestId: string, nonce: string): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/healthz") return healthz();
    if (url.pathname === "/readyz") return readyz();
    // A bearer-authenticated request (an API client) is not cookie-authenticated: its cookies are ignored
    // (server/web/request-state.ts), and no browser sends an Authorization header to another site on its own.
    if (bearerToken(request) === null && isCrossSiteRequest(request, config.PUBLIC_URL, SESSION_COOKIE_NAME)) {
      return textResponse(403, await refusalText(request, "errors.crossSite"));
    }
    if (!(await streamsItsBody(request, url))) {
      const tooLarge = async () => textResponse(413, await refusalText(request, "errors.bodyTooLarge", { limit: MAX_BODY_BYTES }));
      const length = request.headers.get("content-length");
      if (Number(length ?? 0) > MAX_BODY_BYTES) return await tooLarge();
      if (length === null && request.body) {
        // A body without a declared length (chunked) is read up to the limit, never further.
        const limited = await readWithinLimit(request, request.body);
        if (!limited) return await tooLarge();
        request = limited;
      }
    }
    let requestLogger: Logger | undefined;
    const context: AppLoadContext = {
      db: contextDb,
      config,
      // Made on first use: most requests log nothing of their own.
      get logger() {
        return (requestLogger ??= logger.child({ requestId }));
      },
      requestId,
      nonce,
      clientAddress: clientAddressOf(request, client.address, config.TRUST_PROXY),
      sessionStorage,
      languageDetector,
      version: options.version,
      media: options.media,
      screens: options.screens,
      presence: options.presence,
      imports: options.imports,
    };
    return hotCall?.(request, url, context) ?? handleDocument(request, context);
  }

  async function handleFetch(request: Request, client: ClientAddress): Promise<Response> {
    const started = performance.now();
    const requestId = randomUUID();
    const nonce = pooledRandomBytes(16).toString("base64");
    let response: Response;
    try {
      response = await route(request, client, requestId, nonce);
    } catch (error) {
      logger.error({ err: error, requestId }, "request failed");
      response = textResponse(500, await refusalText(request, "errors.unexpected", { id: requestId }));
    }
    response = withMutableHeaders(response);
    const headers = response.headers;
    // A route may only make the Referrer-Policy stricter (a shareable link's pages: no-referrer).
    for (const [name, value] of Object.entries(BASE_SECURITY_HEADERS))
      if (!(name === "Referrer-Policy" && headers.has(name))) headers.set(name, value);
    // Media responses bring their own, stricter policy (sandboxed).
    if (!headers.has("Content-Security-Policy"))
      headers.set("Content-Security-Policy", contentSecurityPolicy(nonce, mode === "development"));
    headers.set("X-Request-Id", requestId);
    if (!headers.has("Cache-Control")) headers.set("Cache-Control", "private, no-store");
    try {
      response = await compressResponse(request, response);
    } catch (error) {
      logger.error({ err: error, requestId }, "response failed before it was sent");
      response = textResponse(500, await refusalText(request, "errors.unexpected", { id: requestId }));
    }
    // The path as it came: the logger writes a link's token as [token] (server/logger.ts, redactSecrets).
    if (logger.isLevelEnabled("info")) {
      logger.info(
        {
          requestId,
          method: request.method,
          path: new URL(request.url).pathname,
          status: response.status,
          ms: Math.round(performance.now() - started),
        },
        "request",
      );
    }
    return response;
  }

  const fetchListener = createRequestListener(handleFetch);
  const serveStatic = options.clientDir
    ? sirv(options.clientDir, {
        etag: true,
        // The build wrote .br and .gz copies of text assets (scripts/production-build.mjs).
        brotli: true,
        gzip: true,
        setHeaders(res, pathname) {
          for (const [name, value] of Object.entries(BASE_SECURITY_HEADERS)) res.setHeader(name, value);
          res.setHeader("Cache-Control", pathname.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "public, max-age=3600");
        },
      })
    : null;

  function listener(req: IncomingMessage, res: ServerResponse) {
    drain.track(req, res);
    if (serveStatic && (req.method === "GET" || req.method === "HEAD")) {
      serveStatic(req, res, () => fetchListener(req, res));
    } else {
      res.once("finish", () => discardUnreadBody(req));
      fetchListener(req, res);
    }
  }

  return { listener, handleFetch, drain };
}
