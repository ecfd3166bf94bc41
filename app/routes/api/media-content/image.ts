import type { Route } from "./+types/image";
import { apiRoute } from "@server/web/respond";
import { loadMediaContent } from "./load";

export const loader = apiRoute((args: Route.LoaderArgs) => loadMediaContent(args, "image"));
