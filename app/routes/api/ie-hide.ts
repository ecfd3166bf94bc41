import { getRequestState } from "../../lib/request-state.server";
import { readBody, redirectBack, wantsJson } from "../../lib/api.server";
import type { Route } from "./+types/ie-hide";

/** Hides the Internet Explorer notice for this session; works as a plain form post. */
export async function action({ request, context }: Route.ActionArgs) {
  const { session } = await getRequestState(request, context);
  session.set("hideIEWarning", true);
  const headers = { "Set-Cookie": await context.sessionStorage.commitSession(session) };
  if (wantsJson(request)) return new Response(null, { status: 204, headers });
  return redirectBack(await readBody(request).catch(() => ({})), headers);
}
