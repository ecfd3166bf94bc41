import type { AppLoadContext } from "react-router";
import type { User } from "@server/accounts/users";
import { libraryBuckets, type LibraryBucket } from "@server/media/library";
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
