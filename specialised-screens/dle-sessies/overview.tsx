import { useActionData, useLoaderData } from "react-router";
import type { RouteHandle } from "@core/route-handle";
import { SessionOverviewPage, sessionOverviewMeta } from "../shared/components/session-overview-page";
import { sessionOverviewAction, sessionOverviewLoader } from "../shared/session-overview.server";

// /dle-sessies/{bucket}: a learning environment's sessions as clip cards in their stored order (docs/screens.md).

export const loader = sessionOverviewLoader("dle-sessies");
export const action = sessionOverviewAction("dle-sessies");
export const meta = sessionOverviewMeta;
export const handle = { messages: ["pages"] } satisfies RouteHandle;

export default function DleSessiesOverview() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return <SessionOverviewPage loaderData={loaderData} actionData={actionData} />;
}
