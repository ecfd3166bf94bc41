import { deliveryAction, deliveryLoader } from "../../../../server/delivery/route";
import { notFound } from "../../../../server/delivery/problem";
import { parseLocale, parsePopulate, requireClientBucket, shapeDocuments } from "../../../../server/delivery/read";
import { singletonDocument } from "../../../../server/delivery/store";

/** GET /api/v1/delivery/buckets/{slug}/singleton: the document of a singleton bucket. */
export const loader = deliveryLoader(async ({ read, url, params }) => {
  const bucket = await requireClientBucket(read.db, read.client, params.slug);
  if (!bucket.bucket.singleton) throw notFound("delivery.problems.notFound.notSingleton");
  const locale = parseLocale(url, bucket.bucket);
  const populate = parsePopulate(url);
  const document = await singletonDocument(read.db, bucket.bucket.id);
  if (!document) throw notFound("delivery.problems.notFound.emptySingleton");
  const [shaped] = await shapeDocuments(read, bucket, [document], { locale, populate });
  return shaped;
});

export const action = deliveryAction();
