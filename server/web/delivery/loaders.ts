import { deliveryOpenApi } from "@core/delivery/openapi";
import { documentAnswer } from "./document-answer";
import { notFound } from "@server/delivery/problem";
import {
  authenticateWithDocument,
  deliveryBucket,
  type FoundDocument,
  readableBuckets,
  requireClientBucket,
  requireClientDocument,
  shapeDocuments,
} from "@server/delivery/read";
import { encodeCursor, parseLocale, parsePageQuery, parsePopulate } from "@server/delivery/query";
import { deliveryLoader, jsonAnswer } from "./route";
import { authenticateApiClient } from "@server/accounts/api-clients";
import { asksPreview, isPreview, PUBLISHED_VIEW, requestedView, viewKey } from "@server/delivery/view";
import { documentPage, latestDocument, singletonDocument } from "@server/delivery/store";

/*
 * The loaders of the delivery API's JSON calls (docs/delivery.md). Their route modules (app/routes/api/delivery/)
 * export them, and server/web/hot-api.ts calls the same ones ahead of React Router.
 */

/** GET /api/v1/delivery/buckets: the buckets the client reads, with their normalised schemas. */
export const bucketsLoader = deliveryLoader(async ({ read }) => {
  const buckets = await readableBuckets(read.db, read.client);
  return {
    items: buckets.map((bucket) => ({
      slug: bucket.slug,
      name: bucket.name,
      singleton: bucket.singleton,
      private: bucket.private,
      collectionName: bucket.collectionName,
      locales: bucket.locales,
      schema: deliveryBucket(bucket).schema,
    })),
  };
});

/** GET /api/v1/delivery/buckets/{slug}/documents: a page of documents, {items, nextCursor}. */
export const documentsLoader = deliveryLoader(async ({ read: published, url, params, request }) => {
  // A preview (version=newest, release=…) is refused (403) before the bucket is looked at.
  const view = await requestedView(published.db, published.client, url);
  const read = view === PUBLISHED_VIEW ? published : { ...published, view };
  const bucket = await requireClientBucket(read.db, read.client, params.slug);
  const locale = parseLocale(url, bucket.bucket);
  const populate = parsePopulate(url);
  const query = parsePageQuery(url, bucket, locale);
  const { documents, more } = await documentPage(read.db, bucket.bucket.id, query, read.view);
  const items = await shapeDocuments(read, bucket, documents, { locale, populate });
  const last = documents.at(-1);
  const page = { items, nextCursor: more && last ? encodeCursor(query.sort, last.sortValue, last.contentId) : null };
  return isPreview(view) ? jsonAnswer(request, page, {}, undefined, viewKey(view)) : page;
});

/**
 * GET /api/v1/delivery/buckets/{slug}/documents/{contentId}: one document's latest version. The client, its
 * scope, the bucket and the document are one statement; a revalidation (If-None-Match) reads the document's state
 * only, as its ETag may be known from it (server/delivery/etag.ts).
 */
export const documentLoader = deliveryLoader<FoundDocument>(
  async ({ read: published, url, params, request, context, found }) => {
    const view = await requestedView(published.db, published.client, url);
    const read = view === PUBLISHED_VIEW ? published : { ...published, view };
    // The bucket is refused (404) first, then a bad parameter, then no document.
    const { bucket, document } = await requireClientDocument(read.db, read.client, params.slug, params.contentId, found, read.view);
    const locale = parseLocale(url, bucket.bucket);
    const populate = parsePopulate(url);
    if (!document) throw notFound("delivery.problems.notFound.document");
    const answer = await documentAnswer(request, read, context.version, bucket, document, { locale, populate }, () =>
      latestDocument(read.db, bucket.bucket.id, document.contentId, read.view),
    );
    if (!answer) throw notFound("delivery.problems.notFound.document");
    return answer;
  },
  async (db, token, { request, params, url }) => {
    // A preview reads its document after the view is known: the client alone here (the published path is one statement).
    if (asksPreview(url)) {
      const client = await authenticateApiClient(db, token);
      return client && { client, found: { bucket: null, document: null } };
    }
    return authenticateWithDocument(db, token, params.slug, params.contentId, !request.headers.has("if-none-match"));
  },
);

/** GET /api/v1/delivery/buckets/{slug}/singleton: the document of a singleton bucket. */
export const singletonLoader = deliveryLoader(async ({ read: published, url, params, request, context }) => {
  const view = await requestedView(published.db, published.client, url);
  const read = view === PUBLISHED_VIEW ? published : { ...published, view };
  const bucket = await requireClientBucket(read.db, read.client, params.slug);
  if (!bucket.bucket.singleton) throw notFound("delivery.problems.notFound.notSingleton");
  const locale = parseLocale(url, bucket.bucket);
  const populate = parsePopulate(url);
  // A revalidation reads the document's state first: its ETag may be known from it (server/delivery/etag.ts).
  const document = await singletonDocument(read.db, bucket.bucket.id, !request.headers.has("if-none-match"), read.view);
  if (!document) throw notFound("delivery.problems.notFound.emptySingleton");
  const answer = await documentAnswer(request, read, context.version, bucket, document, { locale, populate }, () =>
    singletonDocument(read.db, bucket.bucket.id),
  );
  if (!answer) throw notFound("delivery.problems.notFound.emptySingleton");
  return answer;
});

/** GET /api/v1/delivery/openapi.json: the OpenAPI 3.1 document of what this client reads. */
export const openApiLoader = deliveryLoader(async ({ read, context }) => {
  const buckets = await readableBuckets(read.db, read.client);
  return deliveryOpenApi(
    buckets.map((bucket) => ({
      slug: bucket.slug,
      name: bucket.name,
      singleton: bucket.singleton,
      collectionName: bucket.collectionName,
      locales: bucket.locales,
      schema: deliveryBucket(bucket).schema,
    })),
    { title: `${context.config.PRODUCT_NAME} delivery API`, version: context.version, serverUrl: read.base },
  );
});
