import { deliveryAction, deliveryLoader } from "../../../../server/delivery/route";
import { deliveryBucket, readableBuckets } from "../../../../server/delivery/read";

/** GET /api/v1/delivery/buckets: the buckets the client reads, with their normalised schemas. */
export const loader = deliveryLoader(async ({ read }) => {
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

export const action = deliveryAction();
