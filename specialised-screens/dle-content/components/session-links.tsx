import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { SessionBucketLinks } from "../dle-content";

/** The environment's sessions: each session bucket the user may see, its count, its first sessions in stored order. */
export function SessionLinks({ buckets }: { buckets: readonly SessionBucketLinks[] }) {
  const { t } = useTranslation();
  return (
    <section className="dle-sessions" aria-labelledby="dle-sessions-heading">
      <h2 id="dle-sessions-heading">{t("dleContent.sessions.heading")}</h2>
      {buckets.length === 0 ? <p className="empty">{t("dleContent.sessions.none")}</p> : null}
      <ul className="dle-session-buckets">
        {buckets.map((bucket) => (
          <li key={bucket.slug} data-bucket={bucket.slug}>
            <p className="dle-session-bucket">
              <Link to={bucket.href}>{bucket.name}</Link>{" "}
              <span className="dle-session-count">{t("dleContent.sessions.count", { count: bucket.count })}</span>
            </p>
            {bucket.first.length ? (
              <ol className="dle-session-titles">
                {bucket.first.map((session) => (
                  <li key={session.href}>
                    <Link to={session.href}>{session.title || t("dleContent.sessions.untitled")}</Link>
                  </li>
                ))}
              </ol>
            ) : null}
            {bucket.count > bucket.first.length ? (
              <Link className="dle-session-all" to={bucket.href}>
                {t("dleContent.sessions.all", { name: bucket.name })}
              </Link>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
