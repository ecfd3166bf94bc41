import type { Queryable } from "@server/db/client";
import { hashPassword } from "@server/security/password";
import { PERMISSIONS, type Permission } from "@core/people-forms";

export { PERMISSIONS, type Permission };

export interface User {
  id: string;
  name: string;
  email: string;
  permissions: Permission[];
  buckets: string[] | null;
  locale: string | null;
}

/** Who saves a document: a user, or an API client (no user: id null, no permissions). */
export interface Author {
  id: string | null;
  permissions: Permission[];
}

export interface UserWithHash extends User {
  passwordHash: string;
  /** A deactivated account cannot sign in (it answers as an unknown one). */
  deactivatedAt: Date | null;
}

export const USER_COLUMNS = "u.id, u.name, u.email, u.permissions, u.buckets, u.locale";

export async function findUserByEmail(db: Queryable, email: string): Promise<UserWithHash | null> {
  const { rows } = await db.query<UserWithHash>(
    `SELECT ${USER_COLUMNS}, u.password_hash AS "passwordHash", u.deactivated_at AS "deactivatedAt"
     FROM users u WHERE lower(u.email) = lower($1)`,
    [email.trim()],
  );
  return rows[0] ?? null;
}

export class EmailTakenError extends Error {
  constructor(email: string) {
    super(`A user with email ${email} already exists`);
    this.name = "EmailTakenError";
  }
}

export async function createUser(
  db: Queryable,
  input: { name: string; email: string; permissions?: Permission[]; buckets?: string[] | null } & (
    { password: string } | { passwordHash: string }
  ),
): Promise<User> {
  const passwordHash = "passwordHash" in input ? input.passwordHash : await hashPassword(input.password);
  const { rows } = await db.query<User>(
    `INSERT INTO users AS u (name, email, password_hash, permissions, buckets)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT ((lower(email))) DO NOTHING
     RETURNING ${USER_COLUMNS}`,
    [input.name.trim(), input.email.trim(), passwordHash, input.permissions ?? ["user"], input.buckets ?? null],
  );
  if (!rows[0]) throw new EmailTakenError(input.email);
  return rows[0];
}

/** Changed permissions end every session of the user at once. */
export async function setPermissions(db: Queryable, userId: string, permissions: Permission[]): Promise<void> {
  await db.query("UPDATE users SET permissions = $2, updated_at = now() WHERE id = $1", [userId, permissions]);
  await db.query("DELETE FROM sessions WHERE user_id = $1", [userId]);
}

/** The last successful sign-in, shown in the admin's user list. */
export async function markSignedIn(db: Queryable, userId: string): Promise<void> {
  await db.query("UPDATE users SET last_sign_in_at = now() WHERE id = $1", [userId]);
}

export async function setUserLocale(db: Queryable, userId: string, locale: string): Promise<void> {
  await db.query("UPDATE users SET locale = $2 WHERE id = $1", [userId, locale]);
}

export function hasPermission(user: Pick<User, "permissions"> | null | undefined, permission: Permission): boolean {
  return user?.permissions.includes(permission) ?? false;
}

/** What the browser may see of a user. */
export function publicUser(user: User) {
  return { id: user.id, name: user.name, email: user.email, permissions: user.permissions, buckets: user.buckets };
}
