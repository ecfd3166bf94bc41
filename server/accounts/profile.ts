import type { Db } from "@server/db/client";
import { hashPassword, verifyPassword } from "@server/security/password";
import { accountKey } from "./auth";
import { clearFailures, recordFailure, retryAfterSeconds, SIGN_IN_LIMITS } from "./rate-limit";
import { deleteOtherSessions } from "./sessions";
import type { User } from "./users";
import type { Locale } from "@core/locales";

/** The profile's own fields: the name and the language the interface speaks to this user. */
export async function updateProfile(db: Db, userId: string, input: { name: string; locale: Locale }): Promise<void> {
  await db.query("UPDATE users SET name = $2, locale = $3, updated_at = now() WHERE id = $1", [userId, input.name.trim(), input.locale]);
}

export type PasswordChangeOutcome =
  { ok: true; endedSessions: number } | { ok: false; reason: "incorrect" } | { ok: false; reason: "rateLimited"; retryAfter: number };

/**
 * A password change from the profile: the current password is checked under the sign-in limit of the account
 * (a stolen session must not become a way round it); the new one ends every other session of the user and
 * keeps this one (`keepToken`).
 */
export async function changePassword(
  db: Db,
  user: Pick<User, "id" | "email">,
  input: { currentPassword: string; newPassword: string; keepToken: string },
): Promise<PasswordChangeOutcome> {
  const key = accountKey(user.email);
  const wait = await retryAfterSeconds(db, key, SIGN_IN_LIMITS.perAccount);
  if (wait > 0) return { ok: false, reason: "rateLimited", retryAfter: wait };
  const { rows } = await db.query<{ passwordHash: string }>(`SELECT password_hash AS "passwordHash" FROM users WHERE id = $1`, [user.id]);
  if (!rows[0] || !(await verifyPassword(input.currentPassword, rows[0].passwordHash))) {
    await recordFailure(db, key, SIGN_IN_LIMITS.perAccount);
    return { ok: false, reason: "incorrect" };
  }
  const passwordHash = await hashPassword(input.newPassword);
  const endedSessions = await db.transaction(async (tx) => {
    await tx.query("UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1", [user.id, passwordHash]);
    return deleteOtherSessions(tx, user.id, input.keepToken);
  });
  await clearFailures(db, key);
  return { ok: true, endedSessions };
}
