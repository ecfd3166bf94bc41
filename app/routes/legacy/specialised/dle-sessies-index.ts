import type { Route } from "./+types/dle-sessies-index";
import { redirectLegacyIndex } from "./redirect";

export const loader = (args: Route.LoaderArgs) => redirectLegacyIndex(args, "dle-sessies");
