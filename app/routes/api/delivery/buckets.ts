import { deliveryAction } from "@server/web/delivery/route";
import { bucketsLoader } from "@server/web/delivery/loaders";

/** GET /api/v1/delivery/buckets (server/delivery/loaders.ts; served ahead of React Router by server/delivery/fast-path.ts). */
export const loader = bucketsLoader;

export const action = deliveryAction();
