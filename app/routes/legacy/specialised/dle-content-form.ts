import type { Route } from "./+types/dle-content-form";
import { redirectLegacyForm } from "./redirect";

export const loader = (args: Route.LoaderArgs) => redirectLegacyForm(args, "dle-content");
