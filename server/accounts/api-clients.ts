import { timingSafeEqual } from "node:crypto";
import { prepared, type Db, type Queryable } from "@server/db/client";
import { recordActivity } from "@server/admin/activity";
import { parseClientToken } from "@server/security/bearer";
import { hashToken, randomToken } from "@server/security/tokens";
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
  /** May ask the delivery API for newest versions and releases (version=newest, release=): docs/delivery.md, Preview. */
  preview: boolean;
  expiresAt: Date | null;
  createdAt: Date;
  createdByName: string | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** last_used_at is written at most this often per client, not on every request. */
export const LAST_USED_RESOLUTION_SECONDS = 60;

const CLIENT_COLUMNS = `c.id, c.name, c.read_buckets AS "readBuckets", c.write_buckets AS "writeBuckets", c.allowed_origins AS "allowedOrigins", c.preview, c.expires_at AS "expiresAt",
  c.created_at AS "createdAt", u.name AS "createdByName", c.last_used_at AS "lastUsedAt", c.revoked_at AS "revokedAt"`;

export interface NewApiClient {
  name: string;
  readBuckets: string[];
  writeBuckets: string[];
  allowedOrigins?: string[];
  /** Default false: published versions only. */
  preview?: boolean;
  expiresAt: Date | null;
}

/** Creates a client; the token (id and secret) is returned this once and never stored. */
export async function createApiClient(
  db: Db,
  actor: Pick<User, "id" | "name">,
  input: NewApiClient,
): Promise<{ client: ApiClient; token: string }> {
  const secret = randomToken(32);
  const writeBuckets = [...new Set(input.writeBuckets)];
  const readBuckets = [...new Set([...input.readBuckets, ...writeBuckets])];
  const allowedOrigins = [...new Set(input.allowedOrigins ?? [])];
  const preview = input.preview ?? false;
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO api_clients (name, secret_hash, read_buckets, write_buckets, expires_at, created_by, allowed_origins, preview)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [input.name, hashToken(secret), readBuckets, writeBuckets, input.expiresAt, actor.id, allowedOrigins, preview],
    );
    const id = rows[0]?.id;
    if (!id) throw new Error("the API client was not created");
    await recordActivity(tx, actor, {
      area: "client",
      action: "created",
      subject: input.name,
      details: { id, readBuckets, writeBuckets, allowedOrigins, preview, expiresAt: input.expiresAt?.toISOString() ?? null },
    });
    const client = await findApiClient(tx, id);
    if (!client) throw new Error("the API client was not created");
    return { client, token: `${id}.${secret}` };
  });
}

export async function findApiClient(db: Queryable, id: string): Promise<ApiClient | null> {
  const { rows } = await db.query<ApiClient>(
    `SELECT ${CLIENT_COLUMNS} FROM api_clients c LEFT JOIN users u ON u.id = c.created_by WHERE c.id = $1`,
    [id],
  );
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

/**
 * What authenticates a client, for a statement that reads it (and possibly more, in the same round trip: the
 * delivery API's single-document read, server/delivery/read.ts): `c` is the client, `$1` its id, `$2`
 * LAST_USED_RESOLUTION_SECONDS. Its row goes to acceptClient.
 */
export const CLIENT_AUTH_COLUMNS = `${CLIENT_COLUMNS}, c.secret_hash AS "secretHash",
  (c.revoked_at IS NULL AND (c.expires_at IS NULL OR c.expires_at > now())) AS live,
  (c.last_used_at IS NULL OR c.last_used_at <= now() - make_interval(secs => $2)) AS stale`;
export const CLIENT_AUTH_FROM = "api_clients c LEFT JOIN users u ON u.id = c.created_by";

/** A row of CLIENT_AUTH_COLUMNS. */
export type ClientAuthRow = ApiClient & { secretHash: string; live: boolean; stale: boolean };

/** Every delivery request's first statement: prepared once per connection on PostgreSQL. */
const AUTHENTICATE_CLIENT_SQL = prepared(`SELECT ${CLIENT_AUTH_COLUMNS} FROM ${CLIENT_AUTH_FROM} WHERE c.id = $1`);

/** The parameters of a statement made with CLIENT_AUTH_COLUMNS: the token's client id, then the resolution. */
export const clientAuthParams = (token: ClientToken): [string, number] => [token.clientId, LAST_USED_RESOLUTION_SECONDS];

export type ClientToken = NonNullable<ReturnType<typeof parseClientToken>>;

/** Clients whose last_used_at this process is writing now: of many requests at once, one writes. */
const noting = new Set<string>();

/**
 * The client of a row read by its token's id, or null: none, a wrong secret, revoked or expired (all alike to
 * the caller). Notes the use, at most once a minute per client (`stale`), never per request.
 */
export async function acceptClient(db: Queryable, row: ClientAuthRow | undefined, token: ClientToken): Promise<ApiClient | null> {
  if (!row || !sameHash(row.secretHash, hashToken(token.secret)) || !row.live) return null;
  if (row.stale && !noting.has(row.id)) {
    noting.add(row.id);
    try {
      // The condition again: other servers may have written it meanwhile.
      await db.query(
        `UPDATE api_clients SET last_used_at = now()
         WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= now() - make_interval(secs => $2))`,
        [row.id, LAST_USED_RESOLUTION_SECONDS],
      );
    } finally {
      noting.delete(row.id);
    }
  }
  const { secretHash: _hash, live: _live, stale: _stale, ...client } = row;
  return client;
}

/**
 * The live client a bearer token belongs to, or null: malformed, unknown, a wrong secret, revoked or expired
 * (all alike to the caller). Notes the use, at most once a minute per client.
 */
export async function authenticateApiClient(db: Db, token: string): Promise<ApiClient | null> {
  const parsed = parseClientToken(token);
  if (!parsed) return null;
  const { rows } = await db.query<ClientAuthRow>(AUTHENTICATE_CLIENT_SQL, clientAuthParams(parsed));
  return acceptClient(db, rows[0], parsed);
}

/** Whether the client may read (or write) the bucket of this slug. */
export function clientMay(client: Pick<ApiClient, "readBuckets" | "writeBuckets">, access: "read" | "write", slug: string): boolean {
  return (access === "write" ? client.writeBuckets : client.readBuckets).includes(slug);
}

/** Replaces a client's allowed origins (the delivery API's CORS); false when there is no such client. */
export async function setClientOrigins(db: Db, actor: Pick<User, "id" | "name">, id: string, origins: string[]): Promise<boolean> {
  const allowedOrigins = [...new Set(origins)];
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ name: string }>("UPDATE api_clients SET allowed_origins = $2 WHERE id = $1 RETURNING name", [
      id,
      allowedOrigins,
    ]);
    if (!rows[0]) return false;
    await recordActivity(tx, actor, { area: "client", action: "updated", subject: rows[0].name, details: { id, allowedOrigins } });
    return true;
  });
}

/** Turns a client's preview on or off (version=newest, release= in the delivery API); false when there is no such client. */
export async function setClientPreview(db: Db, actor: Pick<User, "id" | "name">, id: string, preview: boolean): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ name: string }>("UPDATE api_clients SET preview = $2 WHERE id = $1 RETURNING name", [id, preview]);
    if (!rows[0]) return false;
    await recordActivity(tx, actor, { area: "client", action: "updated", subject: rows[0].name, details: { id, preview } });
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
