import { prepared, type Db, type Queryable } from "@server/db/client";
import { hashToken, randomToken } from "@server/security/tokens";
import {
  BUCKET_SUMMARIES_JSON,
  RESOLVED_BUCKET_JSON,
  resolveBucketSlugCached,
  type BucketSummary,
  type ResolvedBucket,
} from "@server/content/buckets";
import { NAMED_VERSION_JSON, versionFromJson, type ContentVersion } from "@server/content/store";
import { USER_COLUMNS, type User } from "./users";

export const SESSION_MAX_AGE_SECONDS = 60 * 60 * 24 * 30;
/** The cookie that holds the session (server/http.ts); a state-changing request carrying it must show its origin. */
export const SESSION_COOKIE_NAME = "vitrine_session";

/** What the profile shows of a session: where and with what it was started. */
export interface SessionOrigin {
  userAgent?: string | null;
  address?: string | null;
}

/** Longer user agents are cut: they are shown, never parsed. */
const MAX_USER_AGENT_LENGTH = 400;

export async function createSession(db: Queryable, userId: string, origin: SessionOrigin = {}): Promise<string> {
  const token = randomToken();
  await db.query(
    `INSERT INTO sessions (id_hash, user_id, expires_at, user_agent, address)
     VALUES ($1, $2, now() + make_interval(secs => $3), $4, $5)`,
    [hashToken(token), userId, SESSION_MAX_AGE_SECONDS, origin.userAgent?.slice(0, MAX_USER_AGENT_LENGTH) ?? null, origin.address ?? null],
  );
  return token;
}

/** The live session's user, and when the session ends (what the read cache needs to stop using it). */
interface SessionUser {
  user: User;
  expiresAtMs: number;
}

/** What every signed-in request reads: the session's user, the navigation's buckets, and the bucket it names. */
export interface SessionLookup {
  user: User;
  /** Every bucket's summary; empty when asked without `navigation` (a JSON call shows none). */
  buckets: BucketSummary[];
  /** Asked with `bucketSlug`: the bucket of that slug (current or old), or null. */
  bucket?: ResolvedBucket | null;
  /** Asked with `document` (PostgreSQL): that version of the document in the named bucket, or null. */
  document?: ContentVersion | null;
}

/** A document a JSON read names: its version, or null for the latest. */
export interface NamedDocument {
  contentId: string;
  versionId: string | null;
}

export interface SessionLookupOptions {
  /** The bucket the request names (a route's `:bucket`, a JSON call's slug), read with the session. */
  bucketSlug?: string;
  /** Whether the navigation's bucket list is needed (pages; default), or not (JSON calls). */
  navigation?: boolean;
  /** The document a JSON read names, in the bucket of `bucketSlug`: read with the session where no cache serves it. */
  document?: NamedDocument;
}

const LIVE_SESSION = `FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.id_hash = $1 AND s.expires_at > now() AND u.deactivated_at IS NULL`;

/**
 * The live session's user (null when the session has ended) with what the request needs with it. PGlite: from the
 * process's read cache (server/db/read-cache.ts), kept true by the database's notices. PostgreSQL: one statement,
 * the session, its user, the bucket list, the bucket the request names and the document a JSON read names.
 */
export async function findSessionUser(db: Db, token: string, options: SessionLookupOptions = {}): Promise<SessionLookup | null> {
  const idHash = hashToken(token);
  const { bucketSlug, navigation = true } = options;
  const cache = db.readCache;
  if (cache) {
    const [session, buckets, bucket] = await Promise.all([
      cache.read(
        "sessions",
        idHash,
        () => readSessionUser(db, idHash),
        (found) => found.expiresAtMs > Date.now(),
      ),
      navigation ? cache.read("buckets", "summaries", () => readBucketSummaries(db)) : [],
      bucketSlug === undefined ? undefined : resolveBucketSlugCached(db, bucketSlug),
    ]);
    if (!session) return null;
    return { user: session.user, buckets: buckets ?? [], ...(bucket === undefined ? {} : { bucket }) };
  }
  const document = bucketSlug === undefined ? undefined : options.document;
  const { rows } = await db.query<
    User & { bucketList?: BucketSummary[]; bucket?: ResolvedBucket | null; document?: Parameters<typeof versionFromJson>[0] }
  >(
    sessionLookupSql(navigation, bucketSlug !== undefined, document !== undefined),
    bucketSlug === undefined
      ? [idHash]
      : document === undefined
        ? [idHash, bucketSlug]
        : [idHash, bucketSlug, document.contentId, document.versionId],
  );
  if (!rows[0]) return null;
  const { bucketList = [], bucket, document: version, ...user } = rows[0];
  return {
    user,
    buckets: bucketList,
    ...(bucketSlug === undefined ? {} : { bucket: bucket ?? null }),
    ...(document === undefined ? {} : { document: versionFromJson(version ?? null) }),
  };
}

const sessionLookups = new Map<string, string>();

/** The session lookup's statement with what is asked for: one fixed, prepared text for each combination. */
function sessionLookupSql(navigation: boolean, withBucket: boolean, withDocument: boolean): string {
  const key = `${navigation}:${withBucket}:${withDocument}`;
  let sql = sessionLookups.get(key);
  if (sql === undefined) {
    sql = prepared(`SELECT ${USER_COLUMNS}
       ${navigation ? `, (${BUCKET_SUMMARIES_JSON}) AS "bucketList"` : ""}
       ${withBucket ? `, (${RESOLVED_BUCKET_JSON("$2")}) AS bucket` : ""}
       ${withDocument ? `, (${NAMED_VERSION_JSON("$2", "$3", "$4")}) AS document` : ""}
     ${LIVE_SESSION}`);
    sessionLookups.set(key, sql);
  }
  return sql;
}

async function readSessionUser(db: Db, idHash: string): Promise<SessionUser | null> {
  const { rows } = await db.query<User & { expiresAt: Date }>(`SELECT ${USER_COLUMNS}, s.expires_at AS "expiresAt" ${LIVE_SESSION}`, [
    idHash,
  ]);
  if (!rows[0]) return null;
  const { expiresAt, ...user } = rows[0];
  return { user, expiresAtMs: expiresAt.getTime() };
}

async function readBucketSummaries(db: Db): Promise<BucketSummary[]> {
  const { rows } = await db.query<{ list: BucketSummary[] }>(`SELECT (${BUCKET_SUMMARIES_JSON}) AS list`);
  return rows[0]?.list ?? [];
}

export async function deleteSession(db: Queryable, token: string): Promise<void> {
  await db.query("DELETE FROM sessions WHERE id_hash = $1", [hashToken(token)]);
}

export async function deleteExpiredSessions(db: Db): Promise<number> {
  const { rowCount } = await db.query("DELETE FROM sessions WHERE expires_at <= now()");
  return rowCount;
}

/** A live session of a user, as the profile lists it; `id` names it in forms (the stored hash, never the token). */
export interface UserSession {
  id: string;
  createdAt: Date;
  expiresAt: Date;
  userAgent: string | null;
  address: string | null;
  current: boolean;
}

/** The user's live sessions, newest first; `current` marks the one of `token`. */
export async function listUserSessions(db: Queryable, userId: string, token: string | undefined): Promise<UserSession[]> {
  const { rows } = await db.query<UserSession>(
    `SELECT id_hash AS id, created_at AS "createdAt", expires_at AS "expiresAt", user_agent AS "userAgent", address,
            id_hash = $2 AS current
     FROM sessions WHERE user_id = $1 AND expires_at > now() ORDER BY created_at DESC, id_hash`,
    [userId, token ? hashToken(token) : ""],
  );
  return rows;
}

/** Ends one session of the user (by its listed id); false when it is not theirs or already gone. */
export async function deleteUserSession(db: Queryable, userId: string, sessionId: string): Promise<boolean> {
  const { rowCount } = await db.query("DELETE FROM sessions WHERE user_id = $1 AND id_hash = $2", [userId, sessionId]);
  return rowCount > 0;
}

/** Ends every session of the user except the one of `keepToken`. */
export async function deleteOtherSessions(db: Queryable, userId: string, keepToken: string): Promise<number> {
  const { rowCount } = await db.query("DELETE FROM sessions WHERE user_id = $1 AND id_hash <> $2", [userId, hashToken(keepToken)]);
  return rowCount;
}

/** Ends every session of the user, this one included. */
export async function deleteAllSessions(db: Queryable, userId: string): Promise<number> {
  const { rowCount } = await db.query("DELETE FROM sessions WHERE user_id = $1", [userId]);
  return rowCount;
}
