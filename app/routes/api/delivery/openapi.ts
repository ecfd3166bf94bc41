import { deliveryAction, deliveryLoader } from "../../../../server/delivery/route";
import { deliveryBucket, readableBuckets } from "../../../../server/delivery/read";
import { deliveryOpenApi } from "../../../../core/delivery/openapi";

/** GET /api/v1/delivery/openapi.json: the OpenAPI 3.1 document of what this client reads. */
export const loader = deliveryLoader(async ({ read, context }) => {
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

export const action = deliveryAction();
