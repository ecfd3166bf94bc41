import { deliveryAction, preflight } from "@server/delivery/route";
import { notFound, problemLocale, problemResponse } from "@server/delivery/problem";
import type { Route } from "./+types/not-found";

/** Any other path under /api/v1/delivery/: a 404 problem. */
export const loader = ({ request, context }: Route.LoaderArgs) =>
  request.method === "OPTIONS"
    ? preflight(request, context)
    : problemResponse(notFound("delivery.problems.notFound.path"), problemLocale(request, context.config.DEFAULT_LOCALE));

export const action = deliveryAction();
