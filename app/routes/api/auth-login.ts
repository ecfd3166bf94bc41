import { authenticate, LoginFailure, startSession } from "../../../server/accounts/auth";
import { BadRequest, jsonError, readBody } from "../../../server/web/api";
import { publicUser } from "../../../server/accounts/users";
import type { Route } from "./+types/auth-login";

export function loader() {
  return jsonError("Method not allowed: POST email and password", 405);
}

/** POST /auth/login for API clients: JSON or form in, the user object out. */
export async function action({ request, context }: Route.ActionArgs) {
  let body: Record<string, unknown>;
  try {
    body = await readBody(request);
  } catch (error) {
    if (error instanceof BadRequest) return jsonError(error.message, 400);
    throw error;
  }
  const form = new URLSearchParams({ email: String(body.email ?? ""), password: String(body.password ?? "") });
  const formRequest = new Request(request.url, { method: "POST", body: form, headers: request.headers });
  formRequest.headers.set("Content-Type", "application/x-www-form-urlencoded");
  try {
    const user = await authenticate(formRequest, context);
    const cookie = await startSession(request, context, user);
    return Response.json(publicUser(user), { headers: { "Set-Cookie": cookie } });
  } catch (error) {
    if (!(error instanceof LoginFailure)) {
      context.logger.error({ err: error }, "sign-in failed unexpectedly");
      return jsonError("unknown error", 500);
    }
    if (error.code === "invalid") return jsonError("email and password are required", 400);
    if (error.code === "rate limited") {
      const minutes = Math.ceil(error.retryAfter / 60);
      return jsonError(`Too many failed sign-in attempts. Try again in ${minutes} minute(s).`, 429, {
        "Retry-After": String(error.retryAfter),
      });
    }
    return jsonError(error.code, error.status);
  }
}
