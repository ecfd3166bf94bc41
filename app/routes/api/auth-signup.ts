import { ZodError } from "zod";
import { signUp, SignupFailure, startSession } from "../../../server/accounts/auth";
import { BadRequest, jsonError, readBody } from "../../../server/web/api";
import { publicUser } from "../../../server/accounts/users";
import type { Route } from "./+types/auth-signup";

const SIGNUP_ERRORS = {
  invalidInvitation: ["This invitation code is unknown, already used or expired", 400],
  emailTaken: ["An account with this email already exists", 409],
} as const;

export function loader() {
  return jsonError("Method not allowed: POST name, email, password and invitationCode", 405);
}

export async function action({ request, context }: Route.ActionArgs) {
  if (!context.config.ALLOW_SIGNUP) return jsonError("Signup is not allowed", 403);
  try {
    const user = await signUp(context, await readBody(request));
    const cookie = await startSession(request, context, user);
    return Response.json(publicUser(user), { status: 201, headers: { "Set-Cookie": cookie } });
  } catch (error) {
    if (error instanceof BadRequest) return jsonError(error.message, 400);
    if (error instanceof ZodError) {
      const fields = [...new Set(error.issues.map((issue) => issue.path.join(".")))];
      return jsonError(`Invalid signup: check ${fields.join(", ")}`, 400);
    }
    if (error instanceof SignupFailure) {
      const [message, status] = SIGNUP_ERRORS[error.code];
      return jsonError(message, status);
    }
    throw error;
  }
}
