import type { Route } from "./+types/video";
import { apiRoute } from "@server/web/respond";
import { loadMediaContent } from "./load";

export const loader = apiRoute((args: Route.LoaderArgs) => loadMediaContent(args, "video"));
