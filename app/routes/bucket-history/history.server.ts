import type { AppLoadContext } from "react-router";
import type { User } from "@server/accounts/users";
import type { Bucket } from "@server/content/buckets";
import { savedDocumentPath } from "@core/content/screens";
import { schemaLinkFor } from "@server/content/history";
import { getLatestVersion } from "@server/content/store";
import { HttpError } from "@server/errors";
import { documentTitle } from "@core/content/title";
import { isUuid } from "@core/ids";
import { interfaceBucketName } from "@server/web/request-state";

/** What the history and compare pages show around their content: the bucket, the document's title, links. */
export async function historyHeader(
  request: Request,
  context: AppLoadContext,
  target: { user: User; bucket: Bucket },
  contentId: string | undefined,
) {
  const { user, bucket } = target;
  if (!isUuid(contentId)) throw new HttpError(404, "errors.notFound");
  const latest = await getLatestVersion(context.db, bucket.id, contentId);
  if (!latest) throw new HttpError(404, "errors.notFound");
  return {
    bucket: {
      slug: bucket.slug,
      name: await interfaceBucketName(request, context, bucket),
      singleton: bucket.singleton,
      screen: bucket.screen,
    },
    contentId,
    title: documentTitle(latest.data, bucket.jsonSchema, bucket.locales),
    documentPath: savedDocumentPath(bucket, latest.contentId),
    schemaLink: schemaLinkFor(user, bucket),
  };
}
