import type { Route } from "./+types/file";
import { loadMediaContent } from "./load";

export const loader = (args: Route.LoaderArgs) => loadMediaContent(args, "file");
