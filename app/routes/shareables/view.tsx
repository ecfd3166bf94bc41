import { data } from "react-router";
import { sharedPage } from "@server/content/shared-previews";
import { HttpError } from "@server/errors";
import { pageRoute } from "@server/web/respond";
import { getRequestState } from "@server/web/request-state";
import { SHARE_HEADERS } from "@core/content/shareables";
import type { RouteHandle } from "@core/route-handle";
import { ErrorPage } from "~/components/error-page";
import { SharedDocumentView } from "~/components/share/shared-document";
import { SharedReleaseView } from "~/components/share/shared-release";
import type { Route } from "./+types/view";
import { pageTitle } from "~/lib/page-title";

/*
 * /shareables/{token}: a shared document, or a shared release with its documents (each at its release version), read-only, for anyone holding the link: no session needed, and nothing
 * else of the product shown (the top bar keeps only the brand and the language switch). The token is the guard: an
 * unknown, expired or revoked link, or a deleted document or release, is the 404 page of any unknown route.
 */

export const handle = { standalone: true } satisfies RouteHandle;

export const loader = pageRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const shared = await sharedPage(context, params.token, (await getRequestState(request, context)).locale);
  if (!shared) throw new HttpError(404, "errors.notFound", {}, { headers: SHARE_HEADERS });
  return data(shared, { headers: SHARE_HEADERS });
});

export const headers: Route.HeadersFunction = ({ loaderHeaders, errorHeaders }) => errorHeaders ?? loaderHeaders;

export const meta: Route.MetaFunction = ({ loaderData, matches, error }) => {
  const title = loaderData?.kind === "release" ? loaderData.name : loaderData?.title;
  return [...pageTitle(matches, title, error), { name: "robots", content: "noindex, nofollow" }];
};

export default function SharedPage({ loaderData }: Route.ComponentProps) {
  return loaderData.kind === "release" ? <SharedReleaseView shared={loaderData} /> : <SharedDocumentView shared={loaderData} />;
}

/** The refusal's page, as any route's; its own boundary, so that the 404 keeps the link's headers (no referrer). */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
