import { deliveryAction, preflight } from "@server/web/delivery/route";
import { notFound } from "@server/delivery/problem";
import { problemLocale, problemResponse } from "@server/web/delivery/problem-answer";
import type { Route } from "./+types/not-found";

/** Any other path under /api/v1/delivery/: a 404 problem. */
export const loader = ({ request, context }: Route.LoaderArgs) =>
  request.method === "OPTIONS"
    ? preflight(request, context)
    : problemResponse(notFound("delivery.problems.notFound.path"), problemLocale(request, context.config.DEFAULT_LOCALE));

export const action = deliveryAction();
