import type { AppLoadContext } from "react-router";
import type { User } from "@server/accounts/users";
import type { Bucket } from "@server/content/buckets";
import { publicationOf, type Publication } from "@server/content/publication-state";
import { getVersion } from "@server/content/store";
import { HttpError } from "@server/errors";
import { requireBucketAccess } from "@server/web/guards";
import { mayPublish } from "@core/content/publication";
import { isUuid } from "@core/ids";

/** A publishing action's document: the editor may open its bucket and publish, and the document exists. */
export async function requirePublishing(
  request: Request,
  context: AppLoadContext,
  params: { bucket?: string; contentId?: string },
): Promise<{ user: User; bucket: Bucket; contentId: string; publication: Publication }> {
  const { user, bucket } = await requireBucketAccess(request, context, params.bucket);
  // Checked before the document is looked up: without the permission nothing about it is told.
  if (!mayPublish(user.permissions)) throw new HttpError(403, "errors.publishForbidden");
  const contentId = params.contentId;
  if (!isUuid(contentId)) throw new HttpError(404, "errors.notFound");
  const publication = await publicationOf(context.db, bucket.id, contentId);
  if (!publication) throw new HttpError(404, "errors.notFound");
  return { user, bucket, contentId, publication };
}

/** The version a publish names (a form's or URL's `versionId`; empty: the newest), or 404 when it is not this document's. */
export async function versionToPublish(
  context: AppLoadContext,
  bucket: Bucket,
  contentId: string,
  publication: Publication,
  asked: string,
) {
  const versionId = asked === "" ? publication.latestVersionId : asked;
  const version = isUuid(versionId) ? await getVersion(context.db, bucket.id, contentId, versionId) : null;
  if (!version) throw new HttpError(404, "errors.notFound");
  return version;
}
