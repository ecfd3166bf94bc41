import { hashPassword, verifyPassword } from "@server/security/password";
import { markInvitationUsedBy, redeemInvitation } from "./invitations";
import { recordActivity } from "@server/admin/activity";
import { clearFailures, recordFailure, retryAfterSeconds, SIGN_IN_LIMITS } from "./rate-limit";
import { createUser, EmailTakenError, findUserByEmail, type User } from "./users";
import { loginSchema, signupSchema } from "@core/auth-schemas";
import type { Services } from "@server/services";

export type LoginFailureCode = "unknown user" | "incorrect password" | "rate limited" | "invalid";

/** Why a sign-in failed; `code` is the spec's server error text. */
export class LoginFailure extends Error {
  constructor(
    readonly code: LoginFailureCode,
    readonly status: number,
    readonly retryAfter = 0,
  ) {
    super(code);
    this.name = "LoginFailure";
  }
}

/** The sign-in rate limit's key of an account; a wrong current password on /profile counts there too. */
export const accountKey = (email: string) => `sign-in:account:${email.trim().toLowerCase()}`;
const addressKey = (address: string) => `sign-in:address:${address}`;

/**
 * The user of the posted sign-in fields {email, password}; throws LoginFailure. Failures count against the account
 * and the client's address (the rate limit).
 */
export async function verifyCredentials(context: Pick<Services, "db">, fields: unknown, clientAddress: string): Promise<User> {
  const parsed = loginSchema.safeParse(fields);
  if (!parsed.success) throw new LoginFailure("invalid", 400);
  const { email, password } = parsed.data;
  const { db } = context;
  const keys = [
    [accountKey(email), SIGN_IN_LIMITS.perAccount],
    [addressKey(clientAddress), SIGN_IN_LIMITS.perAddress],
  ] as const;
  const waits = await Promise.all(keys.map(([key, rule]) => retryAfterSeconds(db, key, rule)));
  const wait = Math.max(...waits);
  if (wait > 0) throw new LoginFailure("rate limited", 429, wait);

  const failed = async (code: LoginFailureCode) => {
    for (const [key, rule] of keys) await recordFailure(db, key, rule);
    return new LoginFailure(code, 401);
  };
  const user = await findUserByEmail(db, email);
  // A deactivated account answers as an unknown one (spec §8 has no other sign-in text), before its password is
  // checked: the answer tells nothing about the account, and deactivation cannot be probed with a right password.
  if (!user || user.deactivatedAt) throw await failed("unknown user");
  if (!(await verifyPassword(password, user.passwordHash))) throw await failed("incorrect password");
  await clearFailures(db, keys[0][0]);
  const { passwordHash: _hash, deactivatedAt: _deactivated, ...publicFields } = user;
  return publicFields;
}

export type SignupFailureCode = "invalidInvitation" | "emailTaken";

export class SignupFailure extends Error {
  constructor(readonly code: SignupFailureCode) {
    super(code);
    this.name = "SignupFailure";
  }
}

/** Redeems the invitation and creates the user together: a failed signup burns no code. */
export async function signUp(context: Pick<Services, "db">, input: unknown): Promise<User> {
  const { name, email, password, invitationCode } = signupSchema.parse(input);
  const passwordHash = await hashPassword(password);
  return context.db.transaction(async (tx) => {
    const invitation = await redeemInvitation(tx, invitationCode, email);
    if (!invitation) throw new SignupFailure("invalidInvitation");
    if (await findUserByEmail(tx, email)) throw new SignupFailure("emailTaken");
    try {
      const user = await createUser(tx, { name, email, passwordHash, permissions: invitation.permissions, buckets: invitation.buckets });
      await markInvitationUsedBy(tx, invitationCode, user.id);
      await recordActivity(tx, user, {
        area: "invitation",
        action: "used",
        subject: user.email,
        details: { id: invitation.id, userId: user.id },
      });
      return user;
    } catch (error) {
      if (error instanceof EmailTakenError) throw new SignupFailure("emailTaken");
      throw error;
    }
  });
}
