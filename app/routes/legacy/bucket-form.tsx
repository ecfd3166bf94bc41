import { redirect } from "react-router";
import { currentEditPath } from "../../lib/legacy-routes";
import type { Route } from "./+types/bucket-form";

export function loader({ params }: Route.LoaderArgs) {
  return redirect(currentEditPath("b", params.bucket, params.contentId, params.versionId), 301);
}
