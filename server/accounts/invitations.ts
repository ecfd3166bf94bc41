import type { Queryable } from "@server/db/client";
import { hashToken, randomToken } from "@server/security/tokens";
import { INVITATION_DAYS } from "@core/people-forms";
import type { Permission } from "./users";

export interface NewInvitation {
  id: string;
  code: string;
  expiresAt: Date;
}

export async function createInvitation(
  db: Queryable,
  input: {
    email?: string | null;
    permissions?: Permission[];
    /** The buckets the new user gets; null (or absent) for every bucket. */
    buckets?: string[] | null;
    createdBy?: string | null;
    ttlDays?: number;
    /** The language the invitation was written (and mailed) in. */
    locale?: string | null;
  },
): Promise<NewInvitation> {
  const code = randomToken(18);
  const { rows } = await db.query<{ id: string; expiresAt: Date }>(
    `INSERT INTO invitations (code_hash, email, permissions, buckets, created_by, expires_at, locale)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(days => $6), $7) RETURNING id, expires_at AS "expiresAt"`,
    [
      hashToken(code),
      input.email ?? null,
      input.permissions ?? ["user"],
      input.buckets ?? null,
      input.createdBy ?? null,
      input.ttlDays ?? INVITATION_DAYS.default,
      input.locale ?? null,
    ],
  );
  const [row] = rows;
  if (!row) throw new Error("The invitation was not recorded");
  return { id: row.id, code, expiresAt: row.expiresAt };
}

/** An invitation that can still be redeemed: not used, not revoked, not expired. */
const OPEN = "used_at IS NULL AND revoked_at IS NULL AND expires_at > now()";

/** Whether `code` is an invitation that can still be redeemed (it lets its holder reach /signup). */
export async function isInvitationOpen(db: Queryable, code: string | null | undefined): Promise<boolean> {
  const trimmed = code?.trim();
  if (!trimmed || trimmed.length > 200) return false;
  const { rows } = await db.query(`SELECT 1 FROM invitations WHERE code_hash = $1 AND ${OPEN}`, [hashToken(trimmed)]);
  return rows.length > 0;
}

/**
 * Marks the code used and returns what the new user gets, or null when it is
 * unknown, used, revoked or expired. Single use holds under concurrency: the
 * UPDATE only matches an unused row.
 */
export async function redeemInvitation(
  db: Queryable,
  code: string,
  email: string,
): Promise<{ id: string; permissions: Permission[]; buckets: string[] | null } | null> {
  const { rows } = await db.query<{ id: string; permissions: Permission[]; buckets: string[] | null }>(
    `UPDATE invitations SET used_at = now()
     WHERE code_hash = $1 AND ${OPEN}
       AND (email IS NULL OR lower(email) = lower($2))
     RETURNING id, permissions, buckets`,
    [hashToken(code.trim()), email],
  );
  return rows[0] ?? null;
}

export async function markInvitationUsedBy(db: Queryable, code: string, userId: string): Promise<void> {
  await db.query("UPDATE invitations SET used_by = $2 WHERE code_hash = $1", [hashToken(code.trim()), userId]);
}

export interface OpenInvitation {
  id: string;
  email: string | null;
  permissions: Permission[];
  buckets: string[] | null;
  createdByName: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/** The invitations that can still be redeemed, newest first. */
export async function listOpenInvitations(db: Queryable, limit = 200): Promise<OpenInvitation[]> {
  const { rows } = await db.query<OpenInvitation>(
    `SELECT i.id, i.email, i.permissions, i.buckets, u.name AS "createdByName", i.created_at AS "createdAt",
            i.expires_at AS "expiresAt"
     FROM invitations i LEFT JOIN users u ON u.id = i.created_by
     WHERE i.used_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()
     ORDER BY i.created_at DESC, i.id LIMIT $1`,
    [limit],
  );
  return rows;
}

/** Revokes an open invitation; returns its email (or null) when it was open, undefined when it was not. */
export async function revokeInvitation(db: Queryable, id: string): Promise<{ email: string | null } | undefined> {
  const { rows } = await db.query<{ email: string | null }>(
    `UPDATE invitations SET revoked_at = now() WHERE id = $1 AND ${OPEN} RETURNING email`,
    [id],
  );
  return rows[0];
}
