import type { AppLoadContext } from "react-router";
import type { User } from "@server/accounts/users";
import { countMissingAlt, libraryBuckets, listLibrary, usersForFilter, type LibraryBucket } from "@server/media/library";
import { openPick, pickCancelUrl, pickableItems } from "@server/media/library-pick";
import { HttpError } from "@server/errors";
import { bucketName } from "@core/content/bucket-name";
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

/**
 * /media?pick={token}: the library for one media field a form left to choose for: items of its kind, each with why
 * it does not fit (none: it can be chosen). A choice that expired or is not the user's answers 404 with why.
 */
export async function pickPageData(request: Request, context: AppLoadContext, { user, locale, buckets }: LibraryRequest) {
  const parsed = parseLibraryQuery(new URL(request.url).searchParams);
  const pick = await openPick(context.db, user, parsed.pick);
  if (!pick) throw new HttpError(404, "library.pick.gone");
  const query = { ...parsed, kind: pick.kind, use: null, missingAlt: false };
  const { items, hasMore } = await pickableItems(context.db, buckets, pick, query, locale);
  return {
    page: "pick" as const,
    title: translate(locale, "library.pick.title", { field: pick.label }),
    query,
    field: pick.label,
    kind: pick.kind,
    bucket: bucketName(pick.bucket, locale),
    cancel: pickCancelUrl(pick),
    buckets: buckets.map(({ slug, name }) => ({ slug, name })),
    items,
    hasMore,
  };
}

/**
 * /media/{id}: the item, its versions and uses (404 for an item of a bucket the user may not see). Reached from a
 * field's "Texts for this use" (`?pick={token}`): the way back to that form, while its draft is open.
 */
export async function itemPageData(
  request: Request,
  context: AppLoadContext,
  { user, locale, buckets }: LibraryRequest,
  contentId: string,
) {
  const item = await findLibraryItem(context.db, buckets, contentId, locale);
  const url = new URL(request.url);
  const notice = url.searchParams.get("notice");
  const pick = await openPick(context.db, user, parseLibraryQuery(url.searchParams).pick);
  return {
    page: "item" as const,
    title: item.name,
    item,
    notice: notice === "replaced" ? ("replaced" as const) : null,
    backToForm: pick ? pickCancelUrl(pick) : null,
  };
}
