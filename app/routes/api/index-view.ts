import { getRequestState } from "../../../server/web/request-state";
import { BadRequest, jsonError, readBody, redirectBack, wantsJson } from "../../../server/web/api";
import type { Route } from "./+types/index-view";

const INDEX_VIEWS = ["list", "grid"] as const;

/** A GET changes nothing: only /logout may (spec §2). */
export function loader() {
  return jsonError("Method not allowed: POST view (list or grid)", 405, { Allow: "POST" });
}

/** Saves the overview's list or grid choice; any other value is refused. */
export async function action({ request, context }: Route.ActionArgs) {
  let body: Record<string, unknown>;
  try {
    body = await readBody(request);
  } catch (error) {
    if (error instanceof BadRequest) return jsonError(error.message, 400);
    throw error;
  }
  const view = INDEX_VIEWS.find((value) => value === body.view);
  if (!view) return jsonError("view must be list or grid", 400);
  const { session } = await getRequestState(request, context);
  session.set("indexView", view);
  const headers = { "Set-Cookie": await context.sessionStorage.commitSession(session) };
  if (wantsJson(request)) return new Response(null, { status: 204, headers });
  return redirectBack(body, headers);
}
