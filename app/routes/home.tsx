import type { RouteHandle } from "@core/route-handle";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { overviewPath } from "@core/content/screens";
import { requireUser } from "@server/web/guards";
import { useClientLinks } from "~/lib/client-links";
import { useRootData } from "~/lib/root-data";
import type { Route } from "./+types/home";
import { metaLocale, pageTitle } from "~/lib/page-title";
import { translate } from "@core/messages";
import { mayPublish } from "@core/content/publication";

export const handle = { messages: ["pages"] } satisfies RouteHandle;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context);
  // Sent here from an admin page (requireAdmin): the page says why.
  return { adminOnly: new URL(request.url).searchParams.get("notice") === "admin-only" };
}

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, translate(metaLocale(matches), "home.title"));

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const root = useRootData();
  const buckets = root?.buckets ?? [];
  const publisher = mayPublish(root?.user?.permissions ?? []);
  // Plain links that React Router follows (lib/client-links.ts): a <Link> per card cost a tenth of the page.
  const list = useRef<HTMLElement>(null);
  useClientLinks(list);
  return (
    <section ref={list}>
      <h1>{t("home.title")}</h1>
      {loaderData.adminOnly ? (
        <p className="notice-warning" role="status">
          {t("home.adminOnly")}
        </p>
      ) : null}
      {buckets.length === 0 ? (
        <p className="empty">{t("home.noBuckets")}</p>
      ) : (
        <>
          <p>{t("home.intro")}</p>
          <ul className="bucket-grid">
            {buckets.map((bucket) => (
              <li key={bucket.slug}>
                <a href={overviewPath(bucket)} className="bucket-card" data-view-transition>
                  <span className="bucket-name">{bucket.name}</span>
                  {bucket.singleton ? <span className="bucket-kind">{t("home.singleton")}</span> : null}
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
      {publisher ? (
        <p className="home-releases">
          <a href="/releases">{t("nav.releases")}</a>
          {" · "}
          {t("home.releases")}
        </p>
      ) : null}
    </section>
  );
}
