import { deliveryAction } from "@server/web/delivery/route";
import { documentsLoader } from "@server/web/delivery/loaders";

/** GET /api/v1/delivery/buckets/{slug}/documents (server/delivery/loaders.ts; served ahead of React Router by server/web/hot-api.ts). */
export const loader = documentsLoader;

export const action = deliveryAction();
