import { redirect } from "react-router";
import type { Route } from "./+types/specialised-index";

/** /sessies-index/x → /sessies/x */
export function loader({ request, params }: Route.LoaderArgs) {
  const prefix = new URL(request.url).pathname.split("/")[1]!.replace(/-index$/, "");
  return redirect(params.bucket ? `/${prefix}/${encodeURIComponent(params.bucket)}` : "/", 301);
}
