import { deliveryAction, deliveryLoader } from "../../../../server/delivery/route";
import { encodeCursor, parseLocale, parsePageQuery, parsePopulate, requireClientBucket, shapeDocuments } from "../../../../server/delivery/read";
import { documentPage } from "../../../../server/delivery/store";

/** GET /api/v1/delivery/buckets/{slug}/documents: a page of documents, {items, nextCursor}. */
export const loader = deliveryLoader(async ({ read, url, params }) => {
  const bucket = await requireClientBucket(read.db, read.client, params.slug);
  const locale = parseLocale(url, bucket.bucket);
  const populate = parsePopulate(url);
  const query = parsePageQuery(url, bucket, locale);
  const { documents, more } = await documentPage(read.db, bucket.bucket.id, query);
  const items = await shapeDocuments(read, bucket, documents, { locale, populate });
  const last = documents.at(-1);
  return { items, nextCursor: more && last ? encodeCursor(query.sort, last.sortValue, last.contentId) : null };
});

export const action = deliveryAction();
