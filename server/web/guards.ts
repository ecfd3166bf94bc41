import { redirect, type AppLoadContext } from "react-router";
import {
  findBucketByCollectionCached,
  isBucketVisible,
  resolveBucketSlugCached,
  type Bucket,
  type ResolvedBucket,
} from "@server/content/buckets";
import { hasPermission, type Author, type User } from "@server/accounts/users";
import type { Chooser } from "@server/media/library-pick";
import { authenticateApiClient, clientMay, type ApiClient } from "@server/accounts/api-clients";
import { isInvitationOpen } from "@server/accounts/invitations";
import type { NamedDocument } from "@server/accounts/sessions";
import { bearerToken } from "@server/security/bearer";
import { HttpError } from "@server/errors";
import { getRequestState } from "./request-state";

/** /login with from_url holding the encoded full path, except for /. */
export function loginRedirectPath(request: Request): string {
  const url = new URL(request.url);
  const path = url.pathname + url.search;
  return path === "/" ? "/login" : `/login?from_url=${encodeURIComponent(path)}`;
}

/** Spec §4 auth: anonymous to /login; without the user permission to /no-access. */
export async function requireUser(request: Request, context: AppLoadContext): Promise<User> {
  const { user } = await getRequestState(request, context);
  if (!user) throw redirect(loginRedirectPath(request));
  if (!hasPermission(user, "user") && new URL(request.url).pathname !== "/no-access") throw redirect("/no-access");
  return user;
}

/** Where requireAdmin sends a signed-in user who is not an admin: home, which then says settings are for admins. */
export const ADMIN_ONLY_PATH = "/?notice=admin-only";

/** Spec §4 isAdmin: anonymous to /login; a user who is not both user and admin to / (with a word why). */
export async function requireAdmin(request: Request, context: AppLoadContext): Promise<User> {
  const { user } = await getRequestState(request, context);
  if (!user) throw redirect(loginRedirectPath(request));
  if (!hasPermission(user, "user") || !hasPermission(user, "admin")) throw redirect(ADMIN_ONLY_PATH);
  return user;
}

/**
 * Spec §4 allowSignup: when web signup is off, /signup sends to /login, unless the visitor holds an invitation
 * code that can still be redeemed (from the invitation's link, or posted): an admin's invitation is the permission.
 */
export async function requireSignupAllowed(context: AppLoadContext, invitationCode?: string | null): Promise<void> {
  if (context.config.ALLOW_SIGNUP) return;
  if (!(await isInvitationOpen(context.db, invitationCode))) throw redirect("/login");
}

/**
 * The same path with the first segment that is `from` replaced by `to` (the query kept): where a page of a renamed
 * bucket now lives.
 */
export function renamedBucketPath(request: Request, from: string, to: string): string {
  const url = new URL(request.url);
  const segments = url.pathname.split("/");
  const index = segments.findIndex((segment) => {
    try {
      return decodeURIComponent(segment) === from;
    } catch {
      return false;
    }
  });
  if (index >= 0) segments[index] = encodeURIComponent(to);
  return segments.join("/") + url.search;
}

const bucketLookups = new WeakMap<AppLoadContext, Map<string, Promise<ResolvedBucket | null>>>();

/**
 * The bucket a slug names, looked up once per request (a page's loaders run in parallel and each guards itself):
 * read with the session when the request state was (a JSON call), else from the read cache (PGlite) or one query.
 */
export function requestBucket(request: Request, context: AppLoadContext, slug: string): Promise<ResolvedBucket | null> {
  let lookups = bucketLookups.get(context);
  if (!lookups) {
    lookups = new Map();
    bucketLookups.set(context, lookups);
  }
  let found = lookups.get(slug);
  if (!found) {
    found = getRequestState(request, context).then(({ namedBucket }) =>
      namedBucket?.slug === slug ? namedBucket.found : resolveBucketSlugCached(context.db, slug),
    );
    lookups.set(slug, found);
  }
  return found;
}

/**
 * A bucket the user may not see is answered as if it did not exist. A page asked for by an old slug of a renamed
 * bucket redirects to the same path with the new slug: 301 for a GET or HEAD, 308 (the method and body kept) for a
 * post, so that bookmarks, links and forms keep working.
 */
export async function requireBucketAccess(
  request: Request,
  context: AppLoadContext,
  slug: string | undefined,
): Promise<{ user: User; bucket: Bucket }> {
  // An action runs before the loaders: its session is read with the bucket (the root loader names it for pages).
  if (slug !== undefined) void getRequestState(request, context, { bucketSlug: slug });
  const user = await requireUser(request, context);
  const found = slug ? await requestBucket(request, context, slug) : null;
  const bucket = found?.bucket;
  if (!bucket || !isBucketVisible(bucket, user)) throw new HttpError(404, "errors.notFound");
  if (found.renamedFrom !== null) {
    const method = request.method.toUpperCase();
    throw redirect(renamedBucketPath(request, found.renamedFrom, bucket.slug), method === "GET" || method === "HEAD" ? 301 : 308);
  }
  return { user, bucket };
}

/** A bearer token that names no live client: unknown, wrong secret, revoked or expired. */
const invalidClient = () =>
  new HttpError(
    401,
    "adminClients.api.invalidToken",
    {},
    { headers: { "WWW-Authenticate": 'Bearer realm="Vitrine", error="invalid_token"' } },
  );

/** The live API client of the request's bearer token (null without one); a bad token is refused with 401. */
async function requestClient(request: Request, context: AppLoadContext): Promise<ApiClient | null> {
  const token = bearerToken(request);
  if (token === null) return null;
  const client = await authenticateApiClient(context.db, token);
  if (!client) throw invalidClient();
  return client;
}

/**
 * For JSON calls: 401/403/404 refusals (answered as JSON) instead of redirects. Only users: an API client's
 * bearer token opens the bucket calls (requireApiBucketAccess) and nothing else.
 */
export async function requireApiUser(request: Request, context: AppLoadContext): Promise<User> {
  if (await requestClient(request, context)) throw new HttpError(403, "adminClients.api.notForClients");
  const { user } = await getRequestState(request, context);
  if (!user) throw new HttpError(401, "api.signInFirst");
  if (!hasPermission(user, "user")) throw new HttpError(403, "api.noAccess");
  return user;
}

/** An API client's saves: no user stands behind them (versions.created_by is null), and no permission. */
const CLIENT_AUTHOR: Author = { id: null, permissions: [] };

export interface ApiBucketAccess {
  bucket: Bucket;
  /** Who writes: the user, or CLIENT_AUTHOR for an API client (with the buckets it reads). */
  author: Author & Chooser;
  user: User | null;
  client: ApiClient | null;
}

/**
 * A bucket call of the JSON API, by a signed-in user (the bucket must be visible to them) or by an API client
 * (`Authorization: Bearer <clientId>.<secret>`: the bucket must be in its read scope, or its write scope for
 * `access: "write"`). A bucket outside either answers 404, as if it did not exist.
 */
export async function requireApiBucketAccess(
  request: Request,
  context: AppLoadContext,
  find: { slug?: string; collectionName?: string; document?: NamedDocument },
  access: "read" | "write" = "read",
): Promise<ApiBucketAccess> {
  const client = await requestClient(request, context);
  // A user's session is read with the bucket, and the document a read names, in one statement (PostgreSQL; PGlite
  // reads the session and bucket from its cache).
  if (!client && find.slug !== undefined) {
    await getRequestState(request, context, {
      bucketSlug: find.slug,
      navigation: false,
      ...(find.document ? { document: find.document } : {}),
    });
  }
  const user = client ? null : await requireApiUser(request, context);
  // The JSON API answers an old slug of a renamed bucket for the bucket itself, without a redirect: exhibit apps
  // and scripts that post to it keep working whatever their HTTP client does with redirects.
  const bucket = find.slug
    ? ((await requestBucket(request, context, find.slug))?.bucket ?? null)
    : find.collectionName
      ? await findBucketByCollectionCached(context.db, find.collectionName)
      : null;
  if (!bucket) throw new HttpError(404, "api.noSuchBucket");
  if (client) {
    if (!clientMay(client, access, bucket.slug)) throw new HttpError(404, "api.noSuchBucket");
    // The media items its saves may name: those of the buckets it reads or writes (server/media/library-pick.ts).
    const clientBuckets = [...new Set([...client.readBuckets, ...client.writeBuckets])];
    return { bucket, author: { ...CLIENT_AUTHOR, clientBuckets }, user: null, client };
  }
  if (!user || !isBucketVisible(bucket, user)) throw new HttpError(404, "api.noSuchBucket");
  return { bucket, author: user, user, client: null };
}
