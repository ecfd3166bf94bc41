import type { RouteHandle } from "@core/route-handle";
import { SessionOverviewPage } from "~/routes/screens/session-overview-page";
import { sessionOverviewAction, sessionOverviewLoader } from "~/routes/screens/session-overview.server";
import type { Route } from "./+types/overview";
import { pageTitle } from "~/lib/page-title";

// /sessies/{bucket}: the sessions of a sessies bucket as clip cards (docs/screens.md).

export const handle = { messages: ["pages"] } satisfies RouteHandle;

export const loader = sessionOverviewLoader("sessies");
export const action = sessionOverviewAction("sessies");
export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.bucket.name);

export default function SessiesOverview({ loaderData, actionData }: Route.ComponentProps) {
  return <SessionOverviewPage loaderData={loaderData} actionData={actionData} />;
}
