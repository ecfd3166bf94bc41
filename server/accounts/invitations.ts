import type { Queryable } from "../db/client";
import { hashToken, randomToken } from "../security/tokens";
import type { Permission } from "./users";

const INVITATION_TTL_DAYS = 7;

export async function createInvitation(
  db: Queryable,
  input: { email?: string | null; permissions?: Permission[]; createdBy?: string | null; ttlDays?: number },
): Promise<{ code: string; expiresAt: Date }> {
  const code = randomToken(18);
  const { rows } = await db.query<{ expiresAt: Date }>(
    `INSERT INTO invitations (code_hash, email, permissions, created_by, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(days => $5)) RETURNING expires_at AS "expiresAt"`,
    [hashToken(code), input.email ?? null, input.permissions ?? ["user"], input.createdBy ?? null, input.ttlDays ?? INVITATION_TTL_DAYS],
  );
  const [row] = rows;
  if (!row) throw new Error("The invitation was not recorded");
  return { code, expiresAt: row.expiresAt };
}

/**
 * Marks the code used and returns its permissions, or null when it is
 * unknown, used or expired. Single use holds under concurrency: the UPDATE
 * only matches an unused row.
 */
export async function redeemInvitation(
  db: Queryable,
  code: string,
  email: string,
): Promise<{ permissions: Permission[] } | null> {
  const { rows } = await db.query<{ permissions: Permission[] }>(
    `UPDATE invitations SET used_at = now()
     WHERE code_hash = $1 AND used_at IS NULL AND expires_at > now()
       AND (email IS NULL OR lower(email) = lower($2))
     RETURNING permissions`,
    [hashToken(code.trim()), email],
  );
  return rows[0] ?? null;
}

export async function markInvitationUsedBy(db: Queryable, code: string, userId: string): Promise<void> {
  await db.query("UPDATE invitations SET used_by = $2 WHERE code_hash = $1", [hashToken(code.trim()), userId]);
}
