import { deliveryAction } from "@server/web/delivery/route";
import { documentLoader } from "@server/web/delivery/loaders";

/** GET /api/v1/delivery/buckets/{slug}/documents/{contentId} (server/delivery/loaders.ts; served ahead of React Router by server/web/hot-api.ts). */
export const loader = documentLoader;

export const action = deliveryAction();
