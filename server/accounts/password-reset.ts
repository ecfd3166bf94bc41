import type { Services } from "@server/services";
import type { Queryable } from "@server/db/client";
import { canSendMail, sendMailInBackground } from "@server/mail/mailer";
import { hashPassword } from "@server/security/password";
import { hashToken, randomToken } from "@server/security/tokens";
import { accountKey } from "./auth";
import { clearFailures, PASSWORD_RESET_LIMITS, recordFailure, retryAfterSeconds } from "./rate-limit";
import { normalizeLocale, type Locale } from "@core/locales";
import { translate } from "@core/messages";

/*
 * Password reset: a single-use token, valid for an hour, mailed as a link. The request answers the same whether
 * or not the address has an account (the mail goes out after the answer, so the time it takes does not tell
 * either); using the token sets the password, ends every session of the user and closes every open token.
 * Without mail, a request for an active account is kept (password_reset_requests) for the admins, who answer it on
 * the user's screen (server/accounts/password-admin.ts).
 */

export const RESET_TOKEN_TTL_SECONDS = 60 * 60;

export type ResetRequestOutcome =
  | { status: "sent" }
  /** No mail can be sent (SMTP_URL/MAIL_FROM unset): the request of an active account is listed for the admins. */
  | { status: "noMail" }
  | { status: "rateLimited"; retryAfter: number };

interface ResetAccount {
  id: string;
  name: string;
  email: string;
  locale: string | null;
  deactivated: boolean;
}

async function findAccount(db: Queryable, email: string): Promise<ResetAccount | null> {
  const { rows } = await db.query<ResetAccount>(
    `SELECT id, name, email, locale, deactivated_at IS NOT NULL AS deactivated FROM users WHERE lower(email) = lower($1)`,
    [email.trim()],
  );
  return rows[0] ?? null;
}

/** The absolute link of a reset token: PUBLIC_URL's origin, or the origin of the URL the request came to. */
export function resetLink(requestUrl: string, publicUrl: string | undefined, token: string): string {
  return new URL(`/password-reset/${token}`, publicUrl ?? new URL(requestUrl).origin).toString();
}

/**
 * Keeps the request of an active account for the admins (one statement, whatever the address: an unknown one takes
 * as long). One request stays open per user; a repeat moves its time. Answers whether one was kept.
 */
async function noteResetRequest(db: Queryable, email: string): Promise<boolean> {
  const { rows } = await db.query(
    `INSERT INTO password_reset_requests (user_id)
     SELECT id FROM users WHERE lower(email) = lower($1) AND deactivated_at IS NULL
     ON CONFLICT (user_id) WHERE closed_at IS NULL DO UPDATE SET requested_at = now()
     RETURNING id`,
    [email.trim()],
  );
  return rows.length > 0;
}

/** Closes the user's open reset request, if any: answered by a new password or a reset link. */
export async function closeResetRequests(db: Queryable, userId: string): Promise<void> {
  await db.query("UPDATE password_reset_requests SET closed_at = now() WHERE user_id = $1 AND closed_at IS NULL", [userId]);
}

export interface OpenResetRequest {
  userId: string;
  name: string;
  email: string;
  requestedAt: Date;
}

/** The open reset requests of active accounts (of one user, when given), oldest first. */
export async function listOpenResetRequests(db: Queryable, userId?: string): Promise<OpenResetRequest[]> {
  const { rows } = await db.query<OpenResetRequest>(
    `SELECT r.user_id AS "userId", u.name, u.email, r.requested_at AS "requestedAt"
     FROM password_reset_requests r JOIN users u ON u.id = r.user_id
     WHERE r.closed_at IS NULL AND u.deactivated_at IS NULL ${userId ? "AND r.user_id = $1" : ""}
     ORDER BY r.requested_at, u.email LIMIT 100`,
    userId ? [userId] : [],
  );
  return rows;
}

/** A new single-use reset token of the user, valid for RESET_TOKEN_TTL_SECONDS; only its hash is stored. */
export async function createResetToken(db: Queryable, userId: string): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken(32);
  const { rows } = await db.query<{ expiresAt: Date }>(
    `INSERT INTO password_resets (token_hash, user_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))
     RETURNING expires_at AS "expiresAt"`,
    [hashToken(token), userId, RESET_TOKEN_TTL_SECONDS],
  );
  const [row] = rows;
  if (!row) throw new Error("the reset token was not stored");
  return { token, expiresAt: row.expiresAt };
}

/** Who asks for a reset: the address typed in, and where the request came from. */
export interface ResetAsker {
  email: string;
  /** The language of the mail when the account has none. */
  locale: Locale;
  clientAddress: string;
  /** The URL the request came to: the reset link's origin when PUBLIC_URL is unset. */
  requestUrl: string;
}

/** Handles a reset request for `asker.email`; the outcome never depends on whether the account exists. */
export async function requestPasswordReset(
  context: Pick<Services, "db" | "config" | "logger">,
  asker: ResetAsker,
): Promise<ResetRequestOutcome> {
  const { db, config, logger } = context;
  const { email } = asker;
  const keys = [
    [`password-reset:account:${email.trim().toLowerCase()}`, PASSWORD_RESET_LIMITS.perAccount],
    [`password-reset:address:${asker.clientAddress}`, PASSWORD_RESET_LIMITS.perAddress],
  ] as const;
  const wait = Math.max(...(await Promise.all(keys.map(([key, rule]) => retryAfterSeconds(db, key, rule)))));
  if (wait > 0) return { status: "rateLimited", retryAfter: wait };
  for (const [key, rule] of keys) await recordFailure(db, key, rule);

  if (!canSendMail(config)) {
    const listed = await noteResetRequest(db, email);
    logger.warn(
      { email, listed },
      "password reset requested, but no mail can be sent (SMTP_URL): listed for the admins under Settings → Users when the account is active",
    );
    return { status: "noMail" };
  }
  const account = await findAccount(db, email);
  if (!account || account.deactivated) return { status: "sent" };
  const { token } = await createResetToken(db, account.id);
  const locale = normalizeLocale(account.locale) ?? asker.locale;
  const params = {
    name: account.name,
    product: config.PRODUCT_NAME,
    link: resetLink(asker.requestUrl, config.PUBLIC_URL, token),
    minutes: RESET_TOKEN_TTL_SECONDS / 60,
  };
  // Not awaited: an account's answer must take no longer than a stranger's.
  sendMailInBackground(
    { config, logger },
    {
      to: account.email,
      subject: translate(locale, "passwordReset.mail.subject", params),
      text: translate(locale, "passwordReset.mail.body", params),
    },
    "password reset mail",
    account.id,
  );
  return { status: "sent" };
}

export type ResetTokenState = "valid" | "used" | "expired" | "unknown";

/** What a reset link is worth now, and (while it is valid) the address of its account. */
export async function findResetToken(db: Queryable, token: string): Promise<{ state: ResetTokenState; email: string | null }> {
  const { rows } = await db.query<{ used: boolean; expired: boolean; email: string }>(
    `SELECT r.used_at IS NOT NULL AS used, r.expires_at <= now() AS expired, u.email
     FROM password_resets r JOIN users u ON u.id = r.user_id WHERE r.token_hash = $1`,
    [hashToken(token)],
  );
  const row = rows[0];
  if (!row) return { state: "unknown", email: null };
  const state = row.used ? "used" : row.expired ? "expired" : "valid";
  return { state, email: state === "valid" ? row.email : null };
}

/**
 * Sets the new password with a valid token, at most once: the token and every other open token of the user are
 * closed, every session of the user ends, its open request to the admins is closed, and the sign-in limit of the
 * account is lifted. Answers the token's state ("valid" when the password was set).
 */
export async function completePasswordReset(context: Services, token: string, password: string): Promise<ResetTokenState> {
  const passwordHash = await hashPassword(password);
  const email = await context.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ userId: string }>(
      `UPDATE password_resets SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING user_id AS "userId"`,
      [hashToken(token)],
    );
    const userId = rows[0]?.userId;
    if (!userId) return null;
    const { rows: users } = await tx.query<{ email: string }>(
      "UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1 RETURNING email",
      [userId, passwordHash],
    );
    await tx.query("UPDATE password_resets SET used_at = now() WHERE user_id = $1 AND used_at IS NULL", [userId]);
    await tx.query("DELETE FROM sessions WHERE user_id = $1", [userId]);
    await closeResetRequests(tx, userId);
    return users[0]?.email ?? null;
  });
  if (email === null) return (await findResetToken(context.db, token)).state;
  await clearFailures(context.db, accountKey(email));
  context.logger.info("password reset used");
  return "valid";
}
