import type { RouteHandle } from "@core/route-handle";
import { SessionOverviewPage } from "~/routes/screens/session-overview-page";
import { sessionOverviewAction, sessionOverviewLoader } from "~/routes/screens/session-overview.server";
import type { Route } from "./+types/overview";
import { pageTitle } from "~/lib/page-title";

// /dle-sessies/{bucket}: a learning environment's sessions as clip cards in their stored order (docs/screens.md).

export const handle = { messages: ["pages"] } satisfies RouteHandle;

export const loader = sessionOverviewLoader("dle-sessies");
export const action = sessionOverviewAction("dle-sessies");
export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.bucket.name);

export default function DleSessiesOverview({ loaderData, actionData }: Route.ComponentProps) {
  return <SessionOverviewPage loaderData={loaderData} actionData={actionData} />;
}
