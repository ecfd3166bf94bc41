import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { WhereUsed } from "@core/content/references";

/**
 * The documents that refer to a document about to be deleted: links to them, and how many more there are in
 * buckets the user may not see. Deleting leaves their references dangling: their fields say so.
 */
export function WhereUsedList({ whereUsed, ofSelection = false }: { whereUsed: WhereUsed; ofSelection?: boolean }) {
  const { t } = useTranslation();
  // A bulk delete's documents are many: its own words for the lead, none and after.
  const words = ofSelection ? "whereUsed.ofSelection" : "whereUsed";
  const total = whereUsed.referrers.length + whereUsed.more + whereUsed.hidden;
  if (total === 0) return <p className="muted where-used-none">{t(`${words}.none`)}</p>;
  return (
    <div className="where-used">
      <p>{t(`${words}.lead`, { count: total })}</p>
      {whereUsed.referrers.length ? (
        <ul className="where-used-list">
          {whereUsed.referrers.map((referrer) => (
            <li key={referrer.contentId}>
              <Link to={referrer.path}>{referrer.title || t("overview.untitled")}</Link>
              <span className="muted"> · {referrer.bucketName}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {whereUsed.more ? <p className="muted">{t("whereUsed.more", { count: whereUsed.more })}</p> : null}
      {whereUsed.hidden ? <p className="muted">{t("whereUsed.hidden", { count: whereUsed.hidden })}</p> : null}
      <p>{t(`${words}.dangling`)}</p>
    </div>
  );
}
