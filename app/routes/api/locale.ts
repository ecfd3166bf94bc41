import { setUserLocale } from "@server/accounts/users";
import { normalizeLocale } from "@core/locales";
import { getRequestState } from "@server/web/request-state";
import { readBody, redirectBack, wantsJson } from "@server/web/api";
import { HttpError } from "@server/errors";
import { apiRoute, methodNotAllowed } from "@server/web/respond";
import type { Route } from "./+types/locale";

/** A GET changes nothing: only /logout may (spec §2). */
export const loader = apiRoute(() => {
  throw methodNotAllowed("POST", "POST locale (en or nl)");
});

/** The language switcher: stored in the session, and on the user for next time. */
export const action = apiRoute(async ({ request, context }: Route.ActionArgs) => {
  const body = await readBody(request);
  const locale = normalizeLocale(typeof body.locale === "string" ? body.locale : null);
  if (!locale) throw new HttpError(400, "api.locale");
  const { session, user } = await getRequestState(request, context);
  session.set("locale", locale);
  if (user) await setUserLocale(context.db, user.id, locale);
  const headers = { "Set-Cookie": await context.sessionStorage.commitSession(session) };
  if (wantsJson(request)) return new Response(null, { status: 204, headers });
  return redirectBack(body, headers);
});
