import type { Db } from "../db/client";
import { hashToken, randomToken } from "../security/tokens";
import { BUCKET_SUMMARIES_JSON, type BucketSummary } from "../content/buckets";
import { USER_COLUMNS, type User } from "./users";

export const SESSION_MAX_AGE_SECONDS = 60 * 60 * 24 * 30;

export async function createSession(db: Db, userId: string): Promise<string> {
  const token = randomToken();
  await db.query(
    `INSERT INTO sessions (id_hash, user_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`,
    [hashToken(token), userId, SESSION_MAX_AGE_SECONDS],
  );
  return token;
}

/**
 * One query for what every signed-in page needs: the live session's user and
 * the bucket list the navigation shows (null when the session has ended).
 */
export async function findSessionUser(db: Db, token: string): Promise<{ user: User; buckets: BucketSummary[] } | null> {
  const { rows } = await db.query<User & { bucketList: BucketSummary[] }>(
    `SELECT ${USER_COLUMNS}, (${BUCKET_SUMMARIES_JSON}) AS "bucketList"
     FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.id_hash = $1 AND s.expires_at > now() AND u.deactivated_at IS NULL`,
    [hashToken(token)],
  );
  if (!rows[0]) return null;
  const { bucketList, ...user } = rows[0];
  return { user, buckets: bucketList };
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.query("DELETE FROM sessions WHERE id_hash = $1", [hashToken(token)]);
}

export async function deleteExpiredSessions(db: Db): Promise<number> {
  const { rowCount } = await db.query("DELETE FROM sessions WHERE expires_at <= now()");
  return rowCount;
}
