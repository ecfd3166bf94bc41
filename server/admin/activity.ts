import type { Queryable } from "@server/db/client";
import type { User } from "@server/accounts/users";

export type ActivityArea = "bucket" | "schema" | "user" | "invitation" | "client" | "webhook" | "document";

export interface Activity {
  id: string;
  actorId: string | null;
  /** Null for a document version whose author is gone or was an API client (versions keep no name). */
  actorName: string | null;
  area: ActivityArea;
  /** A short verb, also the catalogue key suffix: created, updated, deleted, revoked… */
  action: string;
  /** What was changed, as the admin knows it: a bucket slug, a user's email, a client's name. */
  subject: string;
  details: Record<string, unknown>;
  createdAt: Date;
  /** A document version's data (its creates and saves are listed from versions): what its title is taken from. */
  data: Record<string, unknown> | null;
}

/** Who made a change: a user, or an API client (no user id, its name). */
export type Actor = { id: string | null; name: string };

/** Records an admin change; call it in the same transaction as the change. */
export async function recordActivity(
  db: Queryable,
  actor: Pick<User, "id" | "name"> | Actor,
  entry: { area: ActivityArea; action: string; subject: string; details?: Record<string, unknown> },
): Promise<void> {
  await db.query(`INSERT INTO admin_activity (actor_id, actor_name, area, action, subject, details) VALUES ($1, $2, $3, $4, $5, $6)`, [
    actor.id,
    actor.name,
    entry.area,
    entry.action,
    entry.subject,
    entry.details ?? {},
  ]);
}

/** Records many changes by one actor in one statement (a release's documents); call it in the change's transaction. */
export async function recordActivities(
  db: Queryable,
  actor: Pick<User, "id" | "name"> | Actor,
  entries: ReadonlyArray<{ area: ActivityArea; action: string; subject: string; details?: Record<string, unknown> }>,
): Promise<void> {
  if (entries.length === 0) return;
  await db.query(
    `INSERT INTO admin_activity (actor_id, actor_name, area, action, subject, details)
     SELECT $1, $2, e.area, e.action, e.subject, e.details
     FROM jsonb_to_recordset($3::jsonb) AS e(n int, area text, action text, subject text, details jsonb)
     ORDER BY e.n`,
    [actor.id, actor.name, JSON.stringify(entries.map((entry, n) => ({ n, ...entry, details: entry.details ?? {} })))],
  );
}

/*
 * The log merges admin_activity with the document versions by time at read time, so that a save writes nothing
 * more than its version. Each side is cut to the rows the page can reach (an index scan on either side:
 * admin_activity_created_idx, versions_created_idx); only the page's versions are joined for their data.
 */
export const ACTIVITY_SQL = `
  SELECT m.id, m.actor_id AS "actorId", coalesce(m.actor_name, u.name) AS "actorName", m.area, m.action, m.subject,
         CASE WHEN m.from_versions
           THEN jsonb_build_object('contentId', v.content_id, 'versionId', v.version_id, 'bucketId', c.bucket_id)
           ELSE m.details END AS details,
         m.created_at AS "createdAt", CASE WHEN m.from_versions THEN v.data END AS data
  FROM (
    (SELECT a.id, a.actor_id, a.actor_name, a.area, a.action, a.subject, a.details, a.created_at, 0::bigint AS seq, false AS from_versions
     FROM admin_activity a ORDER BY a.created_at DESC, a.id LIMIT $1::int + $2::int)
    UNION ALL
    (SELECT v.version_id, v.created_by, NULL, 'document', CASE WHEN v.base_version_id IS NULL THEN 'created' ELSE 'saved' END,
            '', '{}'::jsonb, v.created_at, v.seq, true
     FROM versions v ORDER BY v.created_at DESC, v.seq DESC LIMIT $1::int + $2::int)
    ORDER BY created_at DESC, seq DESC, id
    LIMIT $1 OFFSET $2
  ) m
  -- LATERAL with LIMIT (kept from being flattened into a join): one primary-key lookup per row of the page, never a
  -- scan of all versions to join them.
  LEFT JOIN LATERAL (SELECT v.version_id, v.content_id, v.data FROM versions v WHERE m.from_versions AND v.version_id = m.id LIMIT 1) v ON true
  LEFT JOIN contents c ON c.content_id = v.content_id
  LEFT JOIN users u ON m.from_versions AND u.id = m.actor_id
  ORDER BY m.created_at DESC, m.seq DESC, m.id`;

/** The log, newest first, a page at a time: admin changes, document deletes, and document creates and saves. */
export async function listActivity(db: Queryable, options: { limit: number; offset?: number }): Promise<Activity[]> {
  const { rows } = await db.query<Activity>(ACTIVITY_SQL, [options.limit, options.offset ?? 0]);
  return rows;
}
