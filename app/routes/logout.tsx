import { redirect } from "react-router";
import { endSession } from "@server/web/sign-in";
import type { Route } from "./+types/logout";

/** The user menu's 'Signout' is a plain link (spec §2): the one GET that changes state. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const cookie = await endSession(request, context);
  return redirect("/login", { headers: { "Set-Cookie": cookie } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const cookie = await endSession(request, context);
  return redirect("/login", { headers: { "Set-Cookie": cookie } });
}
