import type { AppLoadContext } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { verifyCredentials } from "@server/accounts/auth";
import { createSession, deleteSession } from "@server/accounts/sessions";
import { markSignedIn, type User } from "@server/accounts/users";
import { getRequestState } from "./request-state";

/* Signing in and out over HTTP: the credentials in a form post, the session cookie. */

/** remix-auth with its form strategy; the verify step needs this request's context. */
function authenticator(context: AppLoadContext): Authenticator<User> {
  return new Authenticator<User>().use(
    new FormStrategy(({ form }) => verifyCredentials(context, Object.fromEntries(form), context.clientAddress)),
    "form",
  );
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
