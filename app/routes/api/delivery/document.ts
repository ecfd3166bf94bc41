import { deliveryAction, deliveryLoader } from "../../../../server/delivery/route";
import { notFound } from "../../../../server/delivery/problem";
import { parseLocale, parsePopulate, requireClientDocument, shapeDocuments } from "../../../../server/delivery/read";

/** GET /api/v1/delivery/buckets/{slug}/documents/{contentId}: one document's latest version. */
export const loader = deliveryLoader(async ({ read, url, params }) => {
  // The bucket and the document in one query: the bucket is refused (404) first, then a bad parameter, then no document.
  const { bucket, document } = await requireClientDocument(read.db, read.client, params.slug, params.contentId);
  const locale = parseLocale(url, bucket.bucket);
  const populate = parsePopulate(url);
  if (!document) throw notFound("delivery.problems.notFound.document");
  const [shaped] = await shapeDocuments(read, bucket, [document], { locale, populate });
  return shaped;
});

export const action = deliveryAction();
