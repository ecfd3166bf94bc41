import type { RouteHandle } from "@core/route-handle";
import { useTranslation } from "react-i18next";
import { screenNames } from "@core/content/screens";
import { translate } from "@core/messages";
import { getRequestState } from "@server/web/request-state";
import { pageRoute } from "@server/web/respond";
import { pageTitle } from "~/lib/page-title";
import type { Route } from "./+types/help";

/** Its messages are in the catalogue's admin part (core/catalogue-parts.ts). */
export const handle = { messages: ["admin"] } satisfies RouteHandle;

/*
 * /help: what admins need from the guides in docs/ (screens, the webhook signature), in the interface language. The
 * guides themselves are repository files nobody using the interface can open; the interface's hints link here.
 * Public, like /support: it shows nothing private.
 */

/** The sections other pages link to (`/help#screens`). */
export const HELP_SECTIONS = ["screens", "webhooks", "guides"] as const;

const WEBHOOK_STEPS = ["split", "time", "hmac"] as const;

// Code, not prose: the same in both languages (docs/webhooks.md has it with a whole receiver around it).
const VERIFY_EXAMPLE = `import { createHmac, timingSafeEqual } from "node:crypto";

function verify(secret, body, header, toleranceSeconds = 300) {
  if (!header) return false;
  const pairs = header.split(",").map((part) => part.trim().split("="));
  const t = Number(pairs.find(([name]) => name === "t")?.[1]);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const expected = createHmac("sha256", secret).update(\`\${t}.\${body}\`).digest();
  return pairs.some(([name, value]) => name === "v1" && /^[0-9a-f]{64}$/.test(value ?? "")
    && timingSafeEqual(Buffer.from(value, "hex"), expected));
}`;

export const loader = pageRoute(async ({ request, context }: Route.LoaderArgs) => {
  const { locale } = await getRequestState(request, context);
  return { title: translate(locale, "help.title"), product: context.config.PRODUCT_NAME };
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

export default function Help({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { product } = loaderData;
  return (
    <section className="account-page help-page">
      <h1>{t("help.title")}</h1>
      <p className="account-intro">{t("help.intro", { product })}</p>
      <nav aria-label={t("help.contents")}>
        <ul className="help-contents">
          {HELP_SECTIONS.map((section) => (
            <li key={section}>
              <a href={`#${section}`}>{t(`help.${section}Title`, { product })}</a>
            </li>
          ))}
        </ul>
      </nav>

      <section className="account-section" id="screens" aria-labelledby="help-screens">
        <h2 id="help-screens">{t("help.screensTitle")}</h2>
        <p>{t("help.screensIntro")}</p>
        <dl className="help-screens">
          {screenNames().map((screen) => (
            <div key={screen}>
              <dt>{t(`screens.names.${screen}`)}</dt>
              <dd>{t(`help.screens.${screen}`)}</dd>
            </div>
          ))}
        </dl>
        <p>{t("help.screensCheck")}</p>
      </section>

      <section className="account-section" id="webhooks" aria-labelledby="help-webhooks">
        <h2 id="help-webhooks">{t("help.webhooksTitle")}</h2>
        <p>{t("help.webhooksIntro", { product })}</p>
        <ol>
          {WEBHOOK_STEPS.map((step) => (
            <li key={step}>{t(`help.webhooksSteps.${step}`)}</li>
          ))}
        </ol>
        <p>{t("help.webhooksExample")}</p>
        <pre className="help-code">
          <code>{VERIFY_EXAMPLE}</code>
        </pre>
        <p>{t("help.webhooksRepeat")}</p>
      </section>

      <section className="account-section" id="guides" aria-labelledby="help-guides">
        <h2 id="help-guides">{t("help.guidesTitle", { product })}</h2>
        <p>{t("help.guidesBody", { product })}</p>
      </section>
    </section>
  );
}
