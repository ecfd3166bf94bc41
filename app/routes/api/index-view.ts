import { getRequestState } from "@server/web/request-state";
import { readBody, redirectBack, wantsJson } from "@server/web/api";
import { HttpError } from "@server/errors";
import { apiRoute, methodNotAllowed } from "@server/web/respond";
import type { Route } from "./+types/index-view";

const INDEX_VIEWS = ["list", "grid"] as const;

/** A GET changes nothing: only /logout may (spec §2). */
export const loader = apiRoute(() => {
  throw methodNotAllowed("POST", "POST view (list or grid)");
});

/** Saves the overview's list or grid choice; any other value is refused. */
export const action = apiRoute(async ({ request, context }: Route.ActionArgs) => {
  const body = await readBody(request);
  const view = INDEX_VIEWS.find((value) => value === body.view);
  if (!view) throw new HttpError(400, "api.indexView");
  const { session } = await getRequestState(request, context);
  session.set("indexView", view);
  const headers = { "Set-Cookie": await context.sessionStorage.commitSession(session) };
  if (wantsJson(request)) return new Response(null, { status: 204, headers });
  return redirectBack(body, headers);
});
