import { redirect } from "react-router";
import { currentEditPath } from "../../lib/legacy-routes";
import type { Route } from "./+types/specialised-form";

/** /dle-content-form/x → /dle-content/x/new, and so on for each specialised screen. */
export function loader({ request, params }: Route.LoaderArgs) {
  const prefix = new URL(request.url).pathname.split("/")[1]!.replace(/-form$/, "");
  return redirect(currentEditPath(prefix, params.bucket, params.contentId, params.versionId), 301);
}
