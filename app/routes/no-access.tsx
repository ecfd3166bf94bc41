import { useTranslation } from "react-i18next";
import { redirect } from "react-router";
import { hasPermission } from "../../server/accounts/users";
import { requireUser } from "../../server/web/guards";
import type { Route } from "./+types/no-access";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  if (hasPermission(user, "user")) throw redirect("/");
  return null;
}

export default function NoAccess() {
  const { t } = useTranslation();
  return (
    <section className="notice">
      <h1>{t("noAccess.title")}</h1>
      <p>{t("noAccess.body")}</p>
      <a href="/logout" className="button">{t("noAccess.signout")}</a>
    </section>
  );
}
