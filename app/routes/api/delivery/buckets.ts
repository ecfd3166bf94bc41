import { deliveryAction } from "@server/web/delivery/route";
import { bucketsLoader } from "@server/web/delivery/loaders";

/** GET /api/v1/delivery/buckets (server/delivery/loaders.ts; served ahead of React Router by server/web/hot-api.ts). */
export const loader = bucketsLoader;

export const action = deliveryAction();
