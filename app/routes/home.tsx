import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { overviewPath } from "../../core/content/screens";
import { requireUser } from "../../server/web/guards";
import { useRootData } from "../lib/root-data";
import type { Route } from "./+types/home";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context);
  return null;
}

export default function Home() {
  const { t } = useTranslation();
  const buckets = useRootData()?.buckets ?? [];
  return (
    <section>
      <h1>{t("home.title")}</h1>
      {buckets.length === 0 ? (
        <p className="empty">{t("home.noBuckets")}</p>
      ) : (
        <>
          <p>{t("home.intro")}</p>
          <ul className="bucket-grid">
            {buckets.map((bucket) => (
              <li key={bucket.slug}>
                <Link to={overviewPath(bucket)} className="bucket-card" viewTransition>
                  <span className="bucket-name">{bucket.name}</span>
                  {bucket.singleton ? <span className="bucket-kind">{t("home.singleton")}</span> : null}
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
