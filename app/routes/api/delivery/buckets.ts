import { deliveryAction } from "@server/delivery/route";
import { bucketsLoader } from "@server/delivery/loaders";

/** GET /api/v1/delivery/buckets (server/delivery/loaders.ts; served ahead of React Router by server/delivery/fast-path.ts). */
export const loader = bucketsLoader;

export const action = deliveryAction();
