import type { Route } from "./+types/sessies-form";
import { redirectLegacyForm } from "./redirect";

export const loader = (args: Route.LoaderArgs) => redirectLegacyForm(args, "sessies");
