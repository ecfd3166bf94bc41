import type { Route } from "./+types/trend-form";
import { redirectLegacyForm } from "./redirect";

export const loader = (args: Route.LoaderArgs) => redirectLegacyForm(args, "trend");
