import type { Route } from "./+types/video";
import { loadMediaContent } from "./load";

export const loader = (args: Route.LoaderArgs) => loadMediaContent(args, "video");
