import { deliveryAction, deliveryLoader } from "../../../../server/delivery/route";
import { documentAnswer } from "../../../../server/delivery/etag";
import { notFound } from "../../../../server/delivery/problem";
import { parseLocale, parsePopulate, requireClientBucket } from "../../../../server/delivery/read";
import { singletonDocument } from "../../../../server/delivery/store";

/** GET /api/v1/delivery/buckets/{slug}/singleton: the document of a singleton bucket. */
export const loader = deliveryLoader(async ({ read, url, params, request, context }) => {
  const bucket = await requireClientBucket(read.db, read.client, params.slug);
  if (!bucket.bucket.singleton) throw notFound("delivery.problems.notFound.notSingleton");
  const locale = parseLocale(url, bucket.bucket);
  const populate = parsePopulate(url);
  // A revalidation reads the document's state first: its ETag may be known from it (server/delivery/etag.ts).
  const document = await singletonDocument(read.db, bucket.bucket.id, !request.headers.has("if-none-match"));
  if (!document) throw notFound("delivery.problems.notFound.emptySingleton");
  const answer = await documentAnswer(request, read, context.version, bucket, document, { locale, populate }, () => singletonDocument(read.db, bucket.bucket.id));
  if (!answer) throw notFound("delivery.problems.notFound.emptySingleton");
  return answer;
});

export const action = deliveryAction();
