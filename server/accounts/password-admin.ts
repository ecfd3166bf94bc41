import type { Db, Queryable } from "@server/db/client";
import { recordActivity } from "@server/admin/activity";
import { hashPassword } from "@server/security/password";
import { accountKey } from "./auth";
import { closeResetRequests, createResetToken } from "./password-reset";
import { clearFailures } from "./rate-limit";
import { UserAdminRefusal } from "./user-admin";
import type { User } from "./users";

/*
 * A forgotten password without mail (issue 36): an admin sets a new one, or makes a reset link to pass on, on the
 * user's screen (/settings/users/{id}); the CLI's reset-password sets one through the same function. Either answers
 * the user's open request (password_reset_requests). An admin's change is recorded in the activity log; the CLI
 * records none (it has no actor, as for its other commands).
 */

type Actor = Pick<User, "id" | "name">;

/**
 * Locks the user's row. An admin cannot do this to their own account (the profile asks for the current password)
 * nor to a deactivated one (it cannot sign in); the CLI can.
 */
async function lockTarget(tx: Queryable, userId: string, actor: Actor | null): Promise<{ email: string }> {
  const { rows } = await tx.query<{ email: string; deactivated: boolean }>(
    "SELECT email, deactivated_at IS NOT NULL AS deactivated FROM users WHERE id = $1 FOR UPDATE",
    [userId],
  );
  const target = rows[0];
  if (!target) throw new UserAdminRefusal(404, "adminUsers.errors.notFound");
  if (actor && userId === actor.id) throw new UserAdminRefusal(409, "adminUsers.password.errors.self");
  if (actor && target.deactivated) throw new UserAdminRefusal(409, "adminUsers.password.errors.deactivated");
  return target;
}

/**
 * Sets the user's password (the rules of the forms are the caller's: core/account-schemas.ts): every session of
 * the user ends, open reset links close, the open request is answered and the account's sign-in limit is lifted.
 */
export async function setUserPassword(db: Db, userId: string, password: string, actor: Actor | null): Promise<void> {
  const passwordHash = await hashPassword(password);
  const { email } = await db.transaction(async (tx) => {
    const target = await lockTarget(tx, userId, actor);
    await tx.query("UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1", [userId, passwordHash]);
    await tx.query("UPDATE password_resets SET used_at = now() WHERE user_id = $1 AND used_at IS NULL", [userId]);
    await tx.query("DELETE FROM sessions WHERE user_id = $1", [userId]);
    await closeResetRequests(tx, userId);
    if (actor) await recordActivity(tx, actor, { area: "user", action: "passwordSet", subject: target.email, details: { id: userId } });
    return target;
  });
  await clearFailures(db, accountKey(email));
}

/**
 * A reset link's token for the admin to pass on: single-use and valid as long as a mailed one
 * (RESET_TOKEN_TTL_SECONDS). Only its hash is kept; it is answered this once and never logged. The user's password
 * and sessions stay until the link is used.
 */
export async function makeResetLink(db: Db, userId: string, actor: Actor): Promise<{ token: string; expiresAt: Date }> {
  return db.transaction(async (tx) => {
    const target = await lockTarget(tx, userId, actor);
    const made = await createResetToken(tx, userId);
    await closeResetRequests(tx, userId);
    await recordActivity(tx, actor, { area: "user", action: "resetLinkMade", subject: target.email, details: { id: userId } });
    return made;
  });
}
