import type { AppLoadContext } from "react-router";
import type { User } from "@server/accounts/users";
import { countMissingAlt, libraryBuckets, listLibrary, usersForFilter, type LibraryBucket } from "@server/media/library";
import { findLibraryItem } from "@server/media/library-item";
import { translate } from "@core/messages";
import { parseLibraryQuery } from "@core/media/library";
import { requireUser } from "@server/web/guards";
import { getRequestState } from "@server/web/request-state";
import { translateMessage, type Message } from "@core/messages";
import type { Locale } from "@core/locales";

/*
 * What the media library's pages share on the server (docs/media.md): the signed-in user, the interface language and
 * the buckets whose media they may see. Any signed-in user may use the library; what they see is their buckets'.
 */

export interface LibraryRequest {
  user: User;
  locale: Locale;
  buckets: LibraryBucket[];
}

export async function requireLibrary(request: Request, context: AppLoadContext): Promise<LibraryRequest> {
  const user = await requireUser(request, context);
  const { locale } = await getRequestState(request, context);
  return { user, locale, buckets: await libraryBuckets(context.db, user, locale) };
}

/** Messages in words, for the page (refusals of the media checks come as catalogue messages). */
export const inWords = (locale: Locale, messages: readonly Message[]) => messages.map((message) => translateMessage(locale, message));

/** /media: one page of the library, its filters' choices and the count of images without an alternative text. */
export async function listPageData(request: Request, context: AppLoadContext, { locale, buckets }: LibraryRequest) {
  const url = new URL(request.url);
  const query = parseLibraryQuery(url.searchParams);
  const [page, missingAlt, uploaders] = await Promise.all([
    listLibrary(context.db, buckets, query),
    countMissingAlt(context.db, buckets),
    usersForFilter(context.db),
  ]);
  return {
    page: "list" as const,
    title: translate(locale, "library.title"),
    query,
    buckets: buckets.map(({ slug, name }) => ({ slug, name })),
    uploaders,
    missingAlt,
    deleted: Number(url.searchParams.get("deleted")) || 0,
    ...page,
  };
}

/** /media/{id}: the item, its versions and uses (404 for an item of a bucket the user may not see). */
export async function itemPageData(request: Request, context: AppLoadContext, { locale, buckets }: LibraryRequest, contentId: string) {
  const item = await findLibraryItem(context.db, buckets, contentId, locale);
  const notice = new URL(request.url).searchParams.get("notice");
  return { page: "item" as const, title: item.name, item, notice: notice === "replaced" ? ("replaced" as const) : null };
}
