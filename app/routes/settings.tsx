import { Outlet } from "react-router";
import { requireAdmin } from "../../server/web/guards";
import type { Route } from "./+types/settings";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return null;
}

export default function SettingsLayout() {
  return <Outlet />;
}
