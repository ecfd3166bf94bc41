import type { AppLoadContext, Session } from "react-router";
import { findSessionUser, type NamedDocument, type SessionLookupOptions } from "@server/accounts/sessions";
import type { ContentVersion } from "@server/content/store";
import type { BucketSummary, ResolvedBucket } from "@server/content/buckets";
import type { User } from "@server/accounts/users";
import type { SessionData } from "./context";
import { bearerToken } from "@server/security/bearer";
import { normalizeLocale, type Locale } from "@core/locales";
import { BoundedMap } from "@core/bounded-map";
import { bucketName, type BucketNames } from "@core/content/bucket-name";

export interface RequestState {
  session: Session<SessionData>;
  user: User | null;
  /**
   * Every bucket (summaries), read with the session: filter with visibleBuckets. Empty when the state was first
   * asked for without navigation (a JSON call).
   */
  buckets: BucketSummary[];
  /** The bucket of the slug the state was first asked for with, read with the session (undefined: not read). */
  namedBucket?: { slug: string; found: ResolvedBucket | null };
  /** The document the state was first asked for with, read with the session (undefined: not read). */
  namedDocument?: NamedDocument & { found: ContentVersion | null };
  locale: Locale;
}

/**
 * The request's cookie session, signed-in user and locale; read once per request, with what the first caller asks
 * for: the bucket the request names (`bucketSlug`, then guards.ts requestBucket needs no statement of its own), the
 * document a JSON read names (`document`, where no read cache serves the session), the navigation's bucket list
 * unless `navigation: false` (a JSON call).
 */
export function getRequestState(request: Request, context: AppLoadContext, options: SessionLookupOptions = {}): Promise<RequestState> {
  context.requestState ??= loadRequestState(request, context, options);
  return context.requestState as Promise<RequestState>;
}

async function loadRequestState(request: Request, context: AppLoadContext, options: SessionLookupOptions): Promise<RequestState> {
  const { bucketSlug } = options;
  // A request with a bearer token is authenticated by it alone (an API client): its cookies count for nothing,
  // so the cross-site checks it skips (server/http.ts) can never lend it a session's authority.
  const cookie = bearerToken(request) === null ? request.headers.get("Cookie") : null;
  const session = await context.sessionStorage.getSession(cookie);
  const token = session.get("token");
  const found = token ? await findSessionUser(context.db, token, options) : null;
  const user = found?.user ?? null;
  if (token && !user) session.unset("token"); // ended elsewhere: sign-out, password or permission change
  const locale =
    normalizeLocale(session.get("locale")) ??
    normalizeLocale(user?.locale) ??
    (await browserLocale(request, context)) ??
    context.config.DEFAULT_LOCALE;
  const namedBucket = bucketSlug !== undefined && found?.bucket !== undefined ? { slug: bucketSlug, found: found.bucket } : undefined;
  const { document } = options;
  const namedDocument = namedBucket && document && found?.document !== undefined ? { ...document, found: found.document } : undefined;
  return {
    session,
    user,
    buckets: found?.buckets ?? [],
    ...(namedBucket ? { namedBucket } : {}),
    ...(namedDocument ? { namedDocument } : {}),
    locale,
  };
}

/** Accept-Language values seen (per detector: its fallback is the server's default locale) → the locale they ask for. */
const browserLocales = new WeakMap<AppLoadContext["languageDetector"], Map<string, Locale | null>>();
const BROWSER_LOCALES_KEPT = 200;
const LONGEST_REMEMBERED_HEADER = 256;

/** The supported locale the browser asks for: parsing Accept-Language per request is remembered by its value. */
async function browserLocale(request: Request, context: AppLoadContext): Promise<Locale | null> {
  const header = request.headers.get("Accept-Language") ?? "";
  let known = browserLocales.get(context.languageDetector);
  if (!known) browserLocales.set(context.languageDetector, (known = new BoundedMap<string, Locale | null>(BROWSER_LOCALES_KEPT)));
  const remembered = known.get(header);
  if (remembered !== undefined) return remembered;
  const locale = normalizeLocale(await context.languageDetector.getLocale(request)) ?? null;
  if (header.length <= LONGEST_REMEMBERED_HEADER) known.set(header, locale);
  return locale;
}

export async function commitSession(context: AppLoadContext, session: Session<SessionData>): Promise<HeadersInit> {
  return { "Set-Cookie": await context.sessionStorage.commitSession(session) };
}

/** A bucket's name for the request's interface language (core/content/bucket-name.ts): what pages show. */
export async function interfaceBucketName(
  request: Request,
  context: AppLoadContext,
  bucket: { name: string; names?: BucketNames | null },
): Promise<string> {
  return bucketName(bucket, (await getRequestState(request, context)).locale);
}
