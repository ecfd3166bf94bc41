import type { Route } from "./+types/image";
import { loadMediaContent } from "./load";

export const loader = (args: Route.LoaderArgs) => loadMediaContent(args, "image");
