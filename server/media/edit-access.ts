import type { AppLoadContext } from "react-router";
import { mediaVersion } from "./store";
import { MediaEditError } from "./edit-error";
import { UploadError } from "./upload";
import { jsonError } from "../web/api";
import { requireApiUser } from "../web/guards";
import { isUuid } from "../../core/ids";
import { requireMediaAccess } from "./access";
import type { MediaKind } from "../../core/media/bounds";

/**
 * The media an edit call names by `{id}` (crop, thumb, custom still): a
 * version's _id, or a contentId (its latest version), as the browser sends
 * the contentId. Same guard as every media call: 401 signed out, 404 for
 * media in a bucket the user may not see.
 */
export async function requireMediaById(request: Request, context: AppLoadContext, id: string | undefined, kind: MediaKind) {
  await requireApiUser(request, context);
  const version = isUuid(id) ? await mediaVersion(context.db, id) : null;
  return requireMediaAccess(request, context, version ? { versionId: id, kind } : { contentId: id, kind });
}

/** An UploadError or MediaEditError as the JSON answer of a media call; anything else is rethrown. */
export function mediaErrorResponse(error: unknown): Response {
  if (error instanceof UploadError || error instanceof MediaEditError) return jsonError(error.message, error.status);
  throw error;
}
