import { deliveryAction, deliveryLoader } from "../../../../server/delivery/route";
import { documentAnswer } from "../../../../server/delivery/etag";
import { notFound } from "../../../../server/delivery/problem";
import { parseLocale, parsePopulate, requireClientDocument } from "../../../../server/delivery/read";
import { latestDocument } from "../../../../server/delivery/store";

/** GET /api/v1/delivery/buckets/{slug}/documents/{contentId}: one document's latest version. */
export const loader = deliveryLoader(async ({ read, url, params, request, context }) => {
  // A revalidation reads the document's state first: its ETag may be known from it (server/delivery/etag.ts).
  const revalidation = request.headers.has("if-none-match");
  // The bucket and the document in one query: the bucket is refused (404) first, then a bad parameter, then no document.
  const { bucket, document } = await requireClientDocument(read.db, read.client, params.slug, params.contentId, !revalidation);
  const locale = parseLocale(url, bucket.bucket);
  const populate = parsePopulate(url);
  if (!document) throw notFound("delivery.problems.notFound.document");
  const answer = await documentAnswer(request, read, context.version, bucket, document, { locale, populate }, () =>
    latestDocument(read.db, bucket.bucket.id, document.contentId),
  );
  if (!answer) throw notFound("delivery.problems.notFound.document");
  return answer;
});

export const action = deliveryAction();
