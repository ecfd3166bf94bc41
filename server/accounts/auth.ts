import type { AppLoadContext } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { hashPassword, verifyPassword } from "@server/security/password";
import { markInvitationUsedBy, redeemInvitation } from "./invitations";
import { recordActivity } from "@server/admin/activity";
import { clearFailures, recordFailure, retryAfterSeconds, SIGN_IN_LIMITS } from "./rate-limit";
import { createSession, deleteSession } from "./sessions";
import { createUser, EmailTakenError, findUserByEmail, markSignedIn, type User } from "./users";
import { loginSchema, signupSchema } from "@core/auth-schemas";
import { getRequestState } from "@server/web/request-state";

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

async function verifyCredentials(context: AppLoadContext, form: FormData): Promise<User> {
  const parsed = loginSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) throw new LoginFailure("invalid", 400);
  const { email, password } = parsed.data;
  const { db } = context;
  const keys = [
    [accountKey(email), SIGN_IN_LIMITS.perAccount],
    [addressKey(context.clientAddress), SIGN_IN_LIMITS.perAddress],
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

/** remix-auth with its form strategy; the verify step needs this request's context. */
function authenticator(context: AppLoadContext): Authenticator<User> {
  return new Authenticator<User>().use(new FormStrategy(({ form }) => verifyCredentials(context, form)), "form");
}

/** Checks the credentials in the request's form body; throws LoginFailure. */
export function authenticate(request: Request, context: AppLoadContext): Promise<User> {
  return authenticator(context).authenticate("form", request);
}

/** Starts a new server-side session and renews the cookie. */
export async function startSession(request: Request, context: AppLoadContext, user: User): Promise<string> {
  const { session } = await getRequestState(request, context);
  const previous = session.get("token");
  if (previous) await deleteSession(context.db, previous);
  const origin = { userAgent: request.headers.get("user-agent"), address: context.clientAddress };
  session.set("token", await createSession(context.db, user.id, origin));
  await markSignedIn(context.db, user.id);
  return context.sessionStorage.commitSession(session);
}

export async function endSession(request: Request, context: AppLoadContext): Promise<string> {
  const { session } = await getRequestState(request, context);
  const token = session.get("token");
  if (token) await deleteSession(context.db, token);
  session.unset("token");
  return context.sessionStorage.commitSession(session);
}

export type SignupFailureCode = "invalidInvitation" | "emailTaken";

export class SignupFailure extends Error {
  constructor(readonly code: SignupFailureCode) {
    super(code);
    this.name = "SignupFailure";
  }
}

/** Redeems the invitation and creates the user together: a failed signup burns no code. */
export async function signUp(context: AppLoadContext, input: unknown): Promise<User> {
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

export { requireSignupAllowed } from "@server/web/guards";
