import { useActionData, useLoaderData } from "react-router";
import type { RouteHandle } from "@core/route-handle";
import { SessionOverviewPage, sessionOverviewMeta } from "../shared/components/session-overview-page";
import { sessionOverviewAction, sessionOverviewLoader } from "../shared/session-overview.server";

// /sessies/{bucket}: the sessions of a sessies bucket as clip cards (docs/screens.md).

export const loader = sessionOverviewLoader("sessies");
export const action = sessionOverviewAction("sessies");
export const meta = sessionOverviewMeta;
export const handle = { messages: ["pages"] } satisfies RouteHandle;

export default function SessiesOverview() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return <SessionOverviewPage loaderData={loaderData} actionData={actionData} />;
}
