import { getRequestState } from "../../../server/web/request-state";
import { jsonError, readBody, redirectBack, wantsJson } from "../../../server/web/api";
import type { Route } from "./+types/ie-hide";

/** A GET changes nothing: only /logout may (spec §2). */
export function loader() {
  return jsonError("Method not allowed: POST to hide the Internet Explorer notice", 405, { Allow: "POST" });
}

/** Hides the Internet Explorer notice for this session; works as a plain form post. */
export async function action({ request, context }: Route.ActionArgs) {
  const { session } = await getRequestState(request, context);
  session.set("hideIEWarning", true);
  const headers = { "Set-Cookie": await context.sessionStorage.commitSession(session) };
  if (wantsJson(request)) return new Response(null, { status: 204, headers });
  return redirectBack(await readBody(request).catch(() => ({})), headers);
}
