import type { Route } from "./+types/sessies-index";
import { redirectLegacyIndex } from "./redirect";

export const loader = (args: Route.LoaderArgs) => redirectLegacyIndex(args, "sessies");
