import { LoginFailure } from "@server/accounts/auth";
import { authenticate, startSession } from "@server/web/sign-in";
import { readBody } from "@server/web/api";
import { publicUser } from "@server/accounts/users";
import { HttpError } from "@server/errors";
import { apiRoute, methodNotAllowed } from "@server/web/respond";
import type { Route } from "./+types/auth-login";

export const loader = apiRoute(() => {
  throw methodNotAllowed("POST", "POST email and password");
});

/** A failed sign-in as its refusal: the spec's server error texts ('unknown user', 'incorrect password'). */
function signInRefusal(failure: LoginFailure): HttpError {
  if (failure.code === "invalid") return new HttpError(400, "api.credentialsRequired");
  if (failure.code === "rate limited") {
    return new HttpError(
      429,
      "login.errors.rateLimited",
      { minutes: Math.ceil(failure.retryAfter / 60) },
      { headers: { "Retry-After": String(failure.retryAfter) } },
    );
  }
  // The spec's texts are the protocol (clients match them): they go in `error`, the words in `message`.
  const key = failure.code === "unknown user" ? "login.errors.unknownUser" : "login.errors.incorrectPassword";
  return new HttpError(401, key, {}, { code: failure.code });
}

/** A credential as sent: a string, or a JSON number as its digits; anything else counts as missing. */
function credential(value: unknown): string {
  return typeof value === "string" || typeof value === "number" ? String(value) : "";
}

/** POST /auth/login for API clients: JSON or form in, the user object out. */
export const action = apiRoute(async ({ request, context }: Route.ActionArgs) => {
  const body = await readBody(request);
  const form = new URLSearchParams({ email: credential(body.email), password: credential(body.password) });
  const formRequest = new Request(request.url, { method: "POST", body: form, headers: request.headers });
  formRequest.headers.set("Content-Type", "application/x-www-form-urlencoded");
  try {
    const user = await authenticate(formRequest, context);
    const cookie = await startSession(request, context, user);
    return Response.json(publicUser(user), { headers: { "Set-Cookie": cookie } });
  } catch (error) {
    if (error instanceof LoginFailure) throw signInRefusal(error);
    context.logger.error({ err: error }, "sign-in failed unexpectedly");
    throw new HttpError(500, "login.errors.unknownError", {}, { code: "unknown error" });
  }
});
