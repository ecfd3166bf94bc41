import type { RouteHandle } from "@core/route-handle";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { getRequestState } from "@server/web/request-state";
import { pageRoute } from "@server/web/respond";
import { translate } from "@core/messages";
import type { Route } from "./+types/support";
import { pageTitle } from "~/lib/page-title";
import type { HELP_SECTIONS } from "./help";

/** Its messages are in the catalogue's admin part (core/catalogue-parts.ts). */
export const handle = { messages: ["admin"] } satisfies RouteHandle;

/*
 * /support: who to contact (SUPPORT_EMAIL, SUPPORT_URL), the version, and the documentation that comes with the
 * installation. Public: someone who cannot sign in is the one who needs it most (it shows nothing private).
 */

/** The help page's sections (the guides in docs/ are files of the installation, not pages a reader can open). */
const HELP = ["screens", "webhooks", "guides"] as const satisfies ReadonlyArray<(typeof HELP_SECTIONS)[number]>;

export const loader = pageRoute(async ({ request, context }: Route.LoaderArgs) => {
  const { locale, user } = await getRequestState(request, context);
  return {
    title: translate(locale, "support.title"),
    email: context.config.SUPPORT_EMAIL ?? null,
    url: context.config.SUPPORT_URL ?? null,
    version: context.version,
    product: context.config.PRODUCT_NAME,
    signedIn: user !== null,
  };
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

export default function Support({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { product } = loaderData;
  return (
    <section className="account-page support-page">
      <h1>{t("support.title")}</h1>
      <p className="account-intro">{t("support.intro")}</p>

      <section className="account-section" aria-labelledby="support-contact">
        <h2 id="support-contact">{t("support.contactTitle")}</h2>
        {loaderData.email || loaderData.url ? (
          <dl className="support-contact">
            {loaderData.email ? (
              <>
                <dt>{t("support.email")}</dt>
                <dd>
                  <a href={`mailto:${loaderData.email}`}>{loaderData.email}</a>
                </dd>
              </>
            ) : null}
            {loaderData.url ? (
              <>
                <dt>{t("support.url")}</dt>
                <dd>
                  <a href={loaderData.url} rel="noopener noreferrer">
                    {loaderData.url}
                  </a>
                </dd>
              </>
            ) : null}
          </dl>
        ) : (
          <p data-no-contact>{t("support.noContact", { product })}</p>
        )}
      </section>

      <section className="account-section" aria-labelledby="support-version">
        <h2 id="support-version">{t("support.versionTitle")}</h2>
        <p>
          <strong data-version>{t("support.version", { product, version: loaderData.version })}</strong>
        </p>
        <p className="muted">{t("support.versionHint")}</p>
      </section>

      <section className="account-section" aria-labelledby="support-docs">
        <h2 id="support-docs">{t("support.docsTitle")}</h2>
        <p>{t("support.docsIntro", { product })}</p>
        <ul className="support-docs">
          {HELP.map((section) => (
            <li key={section}>
              <Link to={`/help#${section}`}>{t(`support.docs.${section}`, { product })}</Link>
            </li>
          ))}
        </ul>
        {loaderData.signedIn ? (
          <p>
            <Link to="/style">{t("support.styleGuide")}</Link>
          </p>
        ) : null}
      </section>
    </section>
  );
}
