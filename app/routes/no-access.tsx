import type { RouteHandle } from "@core/route-handle";
import { useTranslation } from "react-i18next";
import { redirect } from "react-router";
import { hasPermission } from "@server/accounts/users";
import { requireUser } from "@server/web/guards";
import type { Route } from "./+types/no-access";
import { metaLocale, pageTitle } from "~/lib/page-title";
import { translate } from "@core/messages";

export const handle = { messages: ["pages"] } satisfies RouteHandle;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  if (hasPermission(user, "user")) throw redirect("/");
  return null;
}

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, translate(metaLocale(matches), "noAccess.title"));

export default function NoAccess() {
  const { t } = useTranslation();
  return (
    <section className="notice">
      <h1>{t("noAccess.title")}</h1>
      <p>{t("noAccess.body")}</p>
      <a href="/logout" className="button">
        {t("noAccess.signout")}
      </a>
    </section>
  );
}
