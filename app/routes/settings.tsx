import type { RouteHandle } from "@core/route-handle";
import { useTranslation } from "react-i18next";
import { NavLink, Outlet } from "react-router";
import { requireAdmin } from "@server/web/guards";
import type { Route } from "./+types/settings";

/** Its messages are in the catalogue's admin part (core/catalogue-parts.ts). */
export const handle = { messages: ["admin", "pages"] } satisfies RouteHandle;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return null;
}

/** The admin areas, one link each; `end` keeps the overview from matching every page under /settings. */
const AREAS = [
  { to: "/settings", key: "settings.nav.overview", end: true },
  { to: "/settings/buckets", key: "settings.nav.buckets", end: false },
  { to: "/settings/users", key: "settings.nav.users", end: false },
  { to: "/settings/invite-user", key: "settings.nav.invite", end: false },
  { to: "/settings/new-client", key: "settings.nav.clients", end: false },
  { to: "/settings/webhooks", key: "webhooks.nav", end: false },
] as const;

export default function SettingsLayout() {
  const { t } = useTranslation();
  return (
    <div className="settings">
      <nav className="settings-nav" aria-label={t("settings.nav.label")}>
        <ul>
          {AREAS.map((area) => (
            <li key={area.to}>
              <NavLink to={area.to} end={area.end} viewTransition>
                {t(area.key)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}
