import type { Db, Queryable } from "@server/db/client";
import { likePattern } from "@server/db/like-pattern";
import type { MessageKey } from "@core/messages";
import type { UserEdit } from "@core/people-forms";
import { recordActivity } from "@server/admin/activity";
import type { Permission, User } from "./users";

/*
 * What an admin does to user accounts (/settings/users): list, edit, deactivate, reactivate, delete. Every change
 * is recorded in the activity log in its own transaction; a change that takes access away ends the user's sessions.
 */

export interface AdminUserRow {
  id: string;
  name: string;
  email: string;
  permissions: Permission[];
  buckets: string[] | null;
  lastSignInAt: Date | null;
  deactivatedAt: Date | null;
  createdAt: Date;
}

const ROW_COLUMNS = `u.id, u.name, u.email, u.permissions, u.buckets, u.last_sign_in_at AS "lastSignInAt",
  u.deactivated_at AS "deactivatedAt", u.created_at AS "createdAt"`;

/** Why an admin's change was refused: a catalogue key, and the form field it belongs to (else the whole form). */
export class UserAdminRefusal extends Error {
  constructor(
    readonly status: 404 | 409 | 400,
    readonly key: MessageKey,
    readonly field?: "email" | "buckets" | "permissions",
  ) {
    super(key);
    this.name = "UserAdminRefusal";
  }
}

/** A page of users, by name then email; `search` matches a part of the name or the email, in any case. */
export async function listUsers(
  db: Queryable,
  options: { search?: string; limit: number; offset: number },
): Promise<{ rows: AdminUserRow[]; total: number }> {
  const search = options.search?.trim() ?? "";
  const where = search ? "WHERE u.name ILIKE $1 OR u.email ILIKE $1" : "";
  const filter = search ? [likePattern(search)] : [];
  const [{ rows }, count] = await Promise.all([
    db.query<AdminUserRow>(
      `SELECT ${ROW_COLUMNS} FROM users u ${where}
       ORDER BY lower(u.name), lower(u.email), u.id LIMIT $${filter.length + 1} OFFSET $${filter.length + 2}`,
      [...filter, options.limit, options.offset],
    ),
    db.query<{ total: string }>(`SELECT count(*) AS total FROM users u ${where}`, filter),
  ]);
  return { rows, total: Number(count.rows[0]?.total ?? 0) };
}

export async function findAdminUser(db: Queryable, id: string): Promise<AdminUserRow | null> {
  const { rows } = await db.query<AdminUserRow>(`SELECT ${ROW_COLUMNS} FROM users u WHERE u.id = $1`, [id]);
  return rows[0] ?? null;
}

/** Someone who can open /settings (spec §4 isAdmin) and sign in. */
const ACTIVE_ADMIN = `'user' = ANY(permissions) AND 'admin' = ANY(permissions) AND deactivated_at IS NULL`;
const isActiveAdmin = (user: Pick<AdminUserRow, "permissions" | "deactivatedAt">) =>
  user.permissions.includes("user") && user.permissions.includes("admin") && !user.deactivatedAt;

/**
 * Locks the active admins' rows (in one order, so two of these never wait on each other) and then the user's, and
 * returns the user and how many active admins there are. Two admins taking their own admin permission away at once
 * are serialised here: the second one counts again after the first has committed.
 */
async function lockForChange(tx: Queryable, id: string): Promise<{ target: AdminUserRow; admins: number }> {
  const { rows: admins } = await tx.query<{ id: string }>(`SELECT id FROM users WHERE ${ACTIVE_ADMIN} ORDER BY id FOR UPDATE`);
  const { rows } = await tx.query<AdminUserRow>(`SELECT ${ROW_COLUMNS} FROM users u WHERE u.id = $1 FOR UPDATE`, [id]);
  const [target] = rows;
  if (!target) throw new UserAdminRefusal(404, "adminUsers.errors.notFound");
  return { target, admins: admins.length };
}

/** Refuses a change that would leave no active admin (the installation could no longer be administered). */
function keepOneAdmin(
  before: AdminUserRow,
  after: Pick<AdminUserRow, "permissions" | "deactivatedAt"> | null,
  admins: number,
  actor: User,
) {
  if (!isActiveAdmin(before) || (after && isActiveAdmin(after)) || admins > 1) return;
  throw new UserAdminRefusal(409, before.id === actor.id ? "adminUsers.errors.lastAdminSelf" : "adminUsers.errors.lastAdmin");
}

const endSessions = (tx: Queryable, userId: string) => tx.query("DELETE FROM sessions WHERE user_id = $1", [userId]);

/** Whether `after` takes away something `before` gave: a permission, or a bucket (null is every bucket). */
export function takesAccessAway(
  before: Pick<AdminUserRow, "permissions" | "buckets">,
  after: Pick<AdminUserRow, "permissions" | "buckets">,
): boolean {
  if (before.permissions.some((permission) => !after.permissions.includes(permission))) return true;
  if (after.buckets === null) return false;
  if (before.buckets === null) return true;
  return before.buckets.some((slug) => !after.buckets?.includes(slug));
}

export async function updateUser(
  db: Db,
  actor: User,
  id: string,
  input: Omit<UserEdit, "buckets"> & { buckets: string[] | null },
): Promise<{ sessionsEnded: boolean }> {
  return db.transaction(async (tx) => {
    const { target, admins } = await lockForChange(tx, id);
    keepOneAdmin(target, { permissions: input.permissions, deactivatedAt: target.deactivatedAt }, admins, actor);
    if (input.buckets?.length) {
      // A slug the user already had may stay even when its bucket is gone (the form shows it as such); a new one must exist.
      const { rows } = await tx.query<{ slug: string }>("SELECT slug FROM buckets WHERE slug = ANY($1)", [input.buckets]);
      const known = new Set([...rows.map((row) => row.slug), ...(target.buckets ?? [])]);
      if (input.buckets.some((slug) => !known.has(slug))) throw new UserAdminRefusal(400, "adminUsers.errors.unknownBucket", "buckets");
    }
    const { rows: taken } = await tx.query("SELECT 1 FROM users WHERE lower(email) = lower($1) AND id <> $2", [input.email, id]);
    if (taken.length) throw new UserAdminRefusal(409, "adminUsers.errors.emailTaken", "email");
    const permissions = [...new Set(input.permissions)].sort((a, b) => PERMISSION_ORDER.indexOf(a) - PERMISSION_ORDER.indexOf(b));
    try {
      await tx.query("UPDATE users SET name = $2, email = $3, permissions = $4, buckets = $5, updated_at = now() WHERE id = $1", [
        id,
        input.name,
        input.email,
        permissions,
        input.buckets,
      ]);
    } catch (error) {
      // The same address taken by another change committed since the check above (the unique index decides).
      if ((error as { code?: unknown }).code === "23505") throw new UserAdminRefusal(409, "adminUsers.errors.emailTaken", "email");
      throw error;
    }
    const sessionsEnded = takesAccessAway(target, { permissions, buckets: input.buckets });
    if (sessionsEnded) await endSessions(tx, id);
    const changed = (["name", "email", "permissions", "buckets"] as const).filter(
      (key) => JSON.stringify(target[key]) !== JSON.stringify(key === "permissions" ? permissions : input[key]),
    );
    if (changed.length) {
      await recordActivity(tx, actor, {
        area: "user",
        action: "updated",
        subject: input.email,
        details: {
          id,
          changed,
          ...(changed.includes("permissions") ? { permissions: { from: target.permissions, to: permissions } } : {}),
          ...(changed.includes("buckets") ? { buckets: { from: target.buckets, to: input.buckets } } : {}),
          sessionsEnded,
        },
      });
    }
    return { sessionsEnded };
  });
}

const PERMISSION_ORDER: readonly Permission[] = ["user", "admin", "dev"];

/** Deactivation keeps the account and its history, refuses its sign-in and ends its sessions at once. */
export async function setDeactivated(db: Db, actor: User, id: string, deactivated: boolean): Promise<void> {
  await db.transaction(async (tx) => {
    const { target, admins } = await lockForChange(tx, id);
    if (Boolean(target.deactivatedAt) === deactivated) return;
    if (deactivated) keepOneAdmin(target, { permissions: target.permissions, deactivatedAt: new Date() }, admins, actor);
    await tx.query(`UPDATE users SET deactivated_at = ${deactivated ? "now()" : "NULL"}, updated_at = now() WHERE id = $1`, [id]);
    if (deactivated) await endSessions(tx, id);
    await recordActivity(tx, actor, {
      area: "user",
      action: deactivated ? "deactivated" : "reactivated",
      subject: target.email,
      details: { id },
    });
  });
}

/** Deletes the account; its sessions go with it, its documents' versions keep their content (created_by is cleared). */
export async function deleteUser(db: Db, actor: User, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const { target, admins } = await lockForChange(tx, id);
    keepOneAdmin(target, null, admins, actor);
    // Recorded first: an admin deleting their own account is the actor, and the row must exist when it is named.
    await recordActivity(tx, actor, { area: "user", action: "deleted", subject: target.email, details: { id, name: target.name } });
    await tx.query("DELETE FROM users WHERE id = $1", [id]);
  });
}
