import { setUserLocale } from "../../../server/accounts/users";
import { normalizeLocale } from "../../../core/locales";
import { getRequestState } from "../../../server/web/request-state";
import { BadRequest, jsonError, readBody, redirectBack, wantsJson } from "../../../server/web/api";
import type { Route } from "./+types/locale";

/** A GET changes nothing: only /logout may (spec §2). */
export function loader() {
  return jsonError("Method not allowed: POST locale (en or nl)", 405, { Allow: "POST" });
}

/** The language switcher: stored in the session, and on the user for next time. */
export async function action({ request, context }: Route.ActionArgs) {
  let body: Record<string, unknown>;
  try {
    body = await readBody(request);
  } catch (error) {
    if (error instanceof BadRequest) return jsonError(error.message, 400);
    throw error;
  }
  const locale = normalizeLocale(typeof body.locale === "string" ? body.locale : null);
  if (!locale) return jsonError("locale must be en or nl", 400);
  const { session, user } = await getRequestState(request, context);
  session.set("locale", locale);
  if (user) await setUserLocale(context.db, user.id, locale);
  const headers = { "Set-Cookie": await context.sessionStorage.commitSession(session) };
  if (wantsJson(request)) return new Response(null, { status: 204, headers });
  return redirectBack(body, headers);
}
