import { ZodError } from "zod";
import { signUp, SignupFailure } from "@server/accounts/auth";
import { startSession } from "@server/web/sign-in";
import { readBody } from "@server/web/api";
import { isInvitationOpen } from "@server/accounts/invitations";
import { publicUser } from "@server/accounts/users";
import { HttpError } from "@server/errors";
import { apiRoute, methodNotAllowed } from "@server/web/respond";
import type { Route } from "./+types/auth-signup";

export const loader = apiRoute(() => {
  throw methodNotAllowed("POST", "POST name, email, password and invitationCode");
});

export const action = apiRoute(async ({ request, context }: Route.ActionArgs) => {
  const body = await readBody(request);
  // As /signup: open web signup, or an invitation code that can still be redeemed (the invitation is the permission).
  if (
    !context.config.ALLOW_SIGNUP &&
    !(await isInvitationOpen(context.db, typeof body.invitationCode === "string" ? body.invitationCode : null))
  ) {
    throw new HttpError(403, "api.signupNotAllowed");
  }
  try {
    const user = await signUp(context, body);
    const cookie = await startSession(request, context, user);
    return Response.json(publicUser(user), { status: 201, headers: { "Set-Cookie": cookie } });
  } catch (error) {
    if (error instanceof ZodError) {
      const fields = [...new Set(error.issues.map((issue) => issue.path.join(".")))];
      throw new HttpError(400, "api.invalidSignup", { fields: fields.join(", ") });
    }
    if (error instanceof SignupFailure) {
      throw error.code === "emailTaken"
        ? new HttpError(409, "signup.errors.emailTaken")
        : new HttpError(400, "signup.errors.invalidInvitation");
    }
    throw error;
  }
});
