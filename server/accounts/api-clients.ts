import { timingSafeEqual } from "node:crypto";
import { prepared, type Db, type Queryable } from "../db/client";
import { recordActivity } from "../admin/activity";
import { parseClientToken } from "../security/bearer";
import { hashToken, randomToken } from "../security/tokens";
import type { User } from "./users";

/*
 * API clients of exhibit apps. The secret is a 256-bit random token, shown once and kept as its SHA-256 (a slow
 * hash adds nothing to a secret nobody can guess). The token an app sends is `<id>.<secret>`: the id finds the
 * row, the secret's hash is compared in constant time.
 */

export interface ApiClient {
  id: string;
  name: string;
  /** Slugs the client may read; every bucket it may write is in here too. */
  readBuckets: string[];
  writeBuckets: string[];
  /** Web origins (scheme://host[:port]) whose pages may call the delivery API with this client's token (CORS). */
  allowedOrigins: string[];
  expiresAt: Date | null;
  createdAt: Date;
  createdByName: string | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** last_used_at is written at most this often per client, not on every request. */
export const LAST_USED_RESOLUTION_SECONDS = 60;

const CLIENT_COLUMNS = `c.id, c.name, c.read_buckets AS "readBuckets", c.write_buckets AS "writeBuckets", c.allowed_origins AS "allowedOrigins", c.expires_at AS "expiresAt",
  c.created_at AS "createdAt", u.name AS "createdByName", c.last_used_at AS "lastUsedAt", c.revoked_at AS "revokedAt"`;

export interface NewApiClient {
  name: string;
  readBuckets: string[];
  writeBuckets: string[];
  allowedOrigins?: string[];
  expiresAt: Date | null;
}

/** Creates a client; the token (id and secret) is returned this once and never stored. */
export async function createApiClient(db: Db, actor: Pick<User, "id" | "name">, input: NewApiClient): Promise<{ client: ApiClient; token: string }> {
  const secret = randomToken(32);
  const writeBuckets = [...new Set(input.writeBuckets)];
  const readBuckets = [...new Set([...input.readBuckets, ...writeBuckets])];
  const allowedOrigins = [...new Set(input.allowedOrigins ?? [])];
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO api_clients (name, secret_hash, read_buckets, write_buckets, expires_at, created_by, allowed_origins)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [input.name, hashToken(secret), readBuckets, writeBuckets, input.expiresAt, actor.id, allowedOrigins],
    );
    const id = rows[0]?.id;
    if (!id) throw new Error("the API client was not created");
    await recordActivity(tx, actor, {
      area: "client",
      action: "created",
      subject: input.name,
      details: { id, readBuckets, writeBuckets, allowedOrigins, expiresAt: input.expiresAt?.toISOString() ?? null },
    });
    const client = await findApiClient(tx, id);
    if (!client) throw new Error("the API client was not created");
    return { client, token: `${id}.${secret}` };
  });
}

export async function findApiClient(db: Queryable, id: string): Promise<ApiClient | null> {
  const { rows } = await db.query<ApiClient>(`SELECT ${CLIENT_COLUMNS} FROM api_clients c LEFT JOIN users u ON u.id = c.created_by WHERE c.id = $1`, [id]);
  return rows[0] ?? null;
}

/** Every client, the live ones first, newest first. */
export async function listApiClients(db: Queryable): Promise<ApiClient[]> {
  const { rows } = await db.query<ApiClient>(
    `SELECT ${CLIENT_COLUMNS} FROM api_clients c LEFT JOIN users u ON u.id = c.created_by
     ORDER BY (c.revoked_at IS NULL AND (c.expires_at IS NULL OR c.expires_at > now())) DESC, c.created_at DESC, c.id`,
  );
  return rows;
}

/** Revokes a live client at once; false when there is no such client or it was already revoked. */
export async function revokeApiClient(db: Db, actor: Pick<User, "id" | "name">, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ name: string }>(
      "UPDATE api_clients SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING name",
      [id],
    );
    if (!rows[0]) return false;
    await recordActivity(tx, actor, { area: "client", action: "revoked", subject: rows[0].name, details: { id } });
    return true;
  });
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Every delivery request's first statement: prepared once per connection on PostgreSQL. */
const AUTHENTICATE_CLIENT_SQL = prepared(`SELECT ${CLIENT_COLUMNS}, c.secret_hash AS "secretHash",
            (c.revoked_at IS NULL AND (c.expires_at IS NULL OR c.expires_at > now())) AS live,
            (c.last_used_at IS NULL OR c.last_used_at <= now() - make_interval(secs => $2)) AS stale
     FROM api_clients c LEFT JOIN users u ON u.id = c.created_by WHERE c.id = $1`);

/**
 * The live client a bearer token belongs to, or null: malformed, unknown, a wrong secret, revoked or expired
 * (all alike to the caller). Notes the use, at most once a minute per client.
 */
export async function authenticateApiClient(db: Db, token: string): Promise<ApiClient | null> {
  const parsed = parseClientToken(token);
  if (!parsed) return null;
  const { rows } = await db.query<ApiClient & { secretHash: string; live: boolean; stale: boolean }>(AUTHENTICATE_CLIENT_SQL, [
    parsed.clientId,
    LAST_USED_RESOLUTION_SECONDS,
  ]);
  const row = rows[0];
  if (!row || !sameHash(row.secretHash, hashToken(parsed.secret)) || !row.live) return null;
  if (row.stale) {
    // The condition again: of several requests at once, one writes.
    await db.query(
      `UPDATE api_clients SET last_used_at = now()
       WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= now() - make_interval(secs => $2))`,
      [row.id, LAST_USED_RESOLUTION_SECONDS],
    );
  }
  const { secretHash: _hash, live: _live, stale: _stale, ...client } = row;
  return client;
}

/** Whether the client may read (or write) the bucket of this slug. */
export function clientMay(client: Pick<ApiClient, "readBuckets" | "writeBuckets">, access: "read" | "write", slug: string): boolean {
  return (access === "write" ? client.writeBuckets : client.readBuckets).includes(slug);
}

/** Replaces a client's allowed origins (the delivery API's CORS); false when there is no such client. */
export async function setClientOrigins(db: Db, actor: Pick<User, "id" | "name">, id: string, origins: string[]): Promise<boolean> {
  const allowedOrigins = [...new Set(origins)];
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ name: string }>("UPDATE api_clients SET allowed_origins = $2 WHERE id = $1 RETURNING name", [id, allowedOrigins]);
    if (!rows[0]) return false;
    await recordActivity(tx, actor, { area: "client", action: "updated", subject: rows[0].name, details: { id, allowedOrigins } });
    return true;
  });
}

/** Whether any live client lets pages of this origin call the delivery API (a CORS preflight carries no token). */
export async function anyClientAllowsOrigin(db: Queryable, origin: string): Promise<boolean> {
  const { rows } = await db.query<{ allowed: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM api_clients WHERE $1 = ANY (allowed_origins) AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())) AS allowed`,
    [origin],
  );
  return rows[0]?.allowed === true;
}
