import type { RouteHandle } from "@core/route-handle";
import { pageRoute } from "@server/web/respond";
import { findLibraryItem } from "@server/media/library-item";
import { pageTitle } from "~/lib/page-title";
import { itemPageData, listPageData, pickPageData, requireLibrary } from "./media.server";
import { itemAction, libraryAction } from "./media-actions.server";
import { ListPage } from "./list-page";
import { ItemPage } from "./item-page";
import { PickPage } from "./pick-page";
import { LIBRARY_PICK_PARAM } from "@core/media/library";
import type { Route } from "./+types/library";
import "~/styles/media-library.css";

export const handle = { messages: ["pages", "media"], streamsBody: true } satisfies RouteHandle;

/*
 * The media library (issue 35, docs/media.md), one route for its two pages (each route costs every page's manifest):
 * /media, every item of the buckets the user may see, searched, filtered, sorted and paged by its address, with an
 * upload of several files and a delete of the selected unused items (or, with ?pick=, the items a media field may
 * choose: server/media/library-pick.ts); /media/{id}, one item, its texts, a new file and
 * its deletion. Both take a multipart post (files) and a plain one.
 */

export const loader = pageRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const library = await requireLibrary(request, context);
  if (params.contentId !== undefined) return itemPageData(request, context, library, params.contentId);
  return new URL(request.url).searchParams.has(LIBRARY_PICK_PARAM)
    ? pickPageData(request, context, library)
    : listPageData(request, context, library);
});

export const action = pageRoute(async ({ request, context, params }: Route.ActionArgs) => {
  const library = await requireLibrary(request, context);
  if (params.contentId === undefined) return libraryAction(request, context, library);
  const item = await findLibraryItem(context.db, library.buckets, params.contentId, library.locale);
  return itemAction(request, context, library, item);
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

export default function MediaLibrary({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.page === "pick")
    return <PickPage loaderData={loaderData} actionData={actionData && "choice" in actionData ? actionData : undefined} />;
  return loaderData.page === "list" ? (
    <ListPage loaderData={loaderData} actionData={actionData && "uploaded" in actionData ? actionData : undefined} />
  ) : (
    <ItemPage loaderData={loaderData} actionData={actionData && "broken" in actionData ? actionData : undefined} />
  );
}
