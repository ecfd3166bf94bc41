import type { Queryable } from "../db/client";
import type { User } from "../accounts/users";

export type ActivityArea = "bucket" | "schema" | "user" | "invitation" | "client" | "webhook";

export interface Activity {
  id: string;
  actorId: string | null;
  actorName: string;
  area: ActivityArea;
  /** A short verb, also the catalogue key suffix: created, updated, deleted, revoked… */
  action: string;
  /** What was changed, as the admin knows it: a bucket slug, a user's email, a client's name. */
  subject: string;
  details: Record<string, unknown>;
  createdAt: Date;
}

/** Records an admin change; call it in the same transaction as the change. */
export async function recordActivity(
  db: Queryable,
  actor: Pick<User, "id" | "name">,
  entry: { area: ActivityArea; action: string; subject: string; details?: Record<string, unknown> },
): Promise<void> {
  await db.query(
    `INSERT INTO admin_activity (actor_id, actor_name, area, action, subject, details) VALUES ($1, $2, $3, $4, $5, $6)`,
    [actor.id, actor.name, entry.area, entry.action, entry.subject, entry.details ?? {}],
  );
}

export async function listActivity(db: Queryable, options: { limit: number; offset?: number }): Promise<Activity[]> {
  const { rows } = await db.query<Activity>(
    `SELECT id, actor_id AS "actorId", actor_name AS "actorName", area, action, subject, details, created_at AS "createdAt"
     FROM admin_activity ORDER BY created_at DESC, id LIMIT $1 OFFSET $2`,
    [options.limit, options.offset ?? 0],
  );
  return rows;
}
