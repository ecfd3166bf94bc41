import type { AppLoadContext } from "react-router";
import type { User } from "@server/accounts/users";
import type { Bucket } from "@server/content/buckets";
import { findVisibleMedia, mediaFindById, type MediaFind } from "@server/media/access";
import type { MediaRow } from "@server/media/store";
import type { MediaKind } from "@core/media/bounds";
import { requireApiUser } from "./guards";

/** The signed-in user (401 otherwise) and a media version they may see (404 otherwise): see findVisibleMedia. */
export async function requireMediaAccess(
  request: Request,
  context: AppLoadContext,
  find: MediaFind,
): Promise<{ user: User; media: MediaRow; bucket: Bucket }> {
  const user = await requireApiUser(request, context);
  return { user, ...(await findVisibleMedia(context.db, user, find)) };
}

/**
 * The media an edit call names by `{id}` (crop, thumb, custom still): a version's _id, or a contentId (its latest
 * version), as the browser sends the contentId. Same guard as every media call: 401 signed out, 404 for media in a
 * bucket the user may not see.
 */
export async function requireMediaById(request: Request, context: AppLoadContext, id: string | undefined, kind: MediaKind) {
  await requireApiUser(request, context);
  return requireMediaAccess(request, context, await mediaFindById(context.db, id, kind));
}
