import type { Route } from "./+types/dle-sessies-form";
import { redirectLegacyForm } from "./redirect";

export const loader = (args: Route.LoaderArgs) => redirectLegacyForm(args, "dle-sessies");
