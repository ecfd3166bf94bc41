import { getRequestState } from "@server/web/request-state";
import { readBody, redirectBack, wantsJson } from "@server/web/api";
import { apiRoute, methodNotAllowed } from "@server/web/respond";
import type { Route } from "./+types/ie-hide";

/** A GET changes nothing: only /logout may (spec §2). */
export const loader = apiRoute(() => {
  throw methodNotAllowed("POST", "POST to hide the Internet Explorer notice");
});

/** Hides the Internet Explorer notice for this session; works as a plain form post. */
export const action = apiRoute(async ({ request, context }: Route.ActionArgs) => {
  const { session } = await getRequestState(request, context);
  session.set("hideIEWarning", true);
  const headers = { "Set-Cookie": await context.sessionStorage.commitSession(session) };
  if (wantsJson(request)) return new Response(null, { status: 204, headers });
  return redirectBack(await readBody(request).catch(() => ({})), headers);
});
