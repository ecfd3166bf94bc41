import { deliveryAction } from "@server/web/delivery/route";
import { openApiLoader } from "@server/web/delivery/loaders";

/** GET /api/v1/delivery/openapi.json (server/delivery/loaders.ts; served ahead of React Router by server/web/hot-api.ts). */
export const loader = openApiLoader;

export const action = deliveryAction();
