import { deliveryAction } from "@server/web/delivery/route";
import { singletonLoader } from "@server/web/delivery/loaders";

/** GET /api/v1/delivery/buckets/{slug}/singleton (server/delivery/loaders.ts; served ahead of React Router by server/web/hot-api.ts). */
export const loader = singletonLoader;

export const action = deliveryAction();
