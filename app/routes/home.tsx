import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { overviewPath } from "../../core/content/screens";
import { requireUser } from "../../server/web/guards";
import { useClientLinks } from "../lib/client-links";
import { useRootData } from "../lib/root-data";
import type { Route } from "./+types/home";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context);
  return null;
}

export default function Home() {
  const { t } = useTranslation();
  const buckets = useRootData()?.buckets ?? [];
  // Plain links that React Router follows (lib/client-links.ts): a <Link> per card cost a tenth of the page.
  const list = useRef<HTMLElement>(null);
  useClientLinks(list);
  return (
    <section ref={list}>
      <h1>{t("home.title")}</h1>
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
    </section>
  );
}
