import { redirect } from "react-router";
import type { Route } from "./+types/overview";

export function loader({ params }: Route.LoaderArgs) {
  return redirect(params.bucket ? `/b/${encodeURIComponent(params.bucket)}` : "/", 301);
}
