import { deliveryAction, deliveryLoader } from "../../../../server/delivery/route";
import { notFound } from "../../../../server/delivery/problem";
import { parseLocale, parsePopulate, requireClientBucket, shapeDocuments } from "../../../../server/delivery/read";
import { latestDocument } from "../../../../server/delivery/store";
import { isUuid } from "../../../../core/ids";

/** GET /api/v1/delivery/buckets/{slug}/documents/{contentId}: one document's latest version. */
export const loader = deliveryLoader(async ({ read, url, params }) => {
  const bucket = await requireClientBucket(read.db, read.client, params.slug);
  const locale = parseLocale(url, bucket.bucket);
  const populate = parsePopulate(url);
  const document = isUuid(params.contentId) ? await latestDocument(read.db, bucket.bucket.id, params.contentId) : null;
  if (!document) throw notFound("delivery.problems.notFound.document");
  const [shaped] = await shapeDocuments(read, bucket, [document], { locale, populate });
  return shaped;
});

export const action = deliveryAction();
