import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { IntentForm } from "~/components/intent-form";
import { PublicationBadge } from "~/components/publishing/publication-badge";
import type { releasePage } from "~/routes/releases/release.server";
import "~/components/releases/release-messages";

/*
 * The table of a release's documents on /releases/{id}: each with its version, its state now and its changes against
 * what exhibits show, and while the release can be changed, a button that removes it.
 */

type ReleaseData = Awaited<ReturnType<typeof releasePage>>;

export function ReleaseItemsTable({ items, editable }: { items: ReleaseData["items"]; editable: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="table-scroll">
      <table className="content-table release-items">
        <caption className="visually-hidden">{t("releases.itemsTitle")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("releases.itemColumns.document")}</th>
            <th scope="col">{t("releases.itemColumns.version")}</th>
            <th scope="col">{t("releases.itemColumns.state")}</th>
            <th scope="col">{t("releases.itemColumns.changes")}</th>
            {editable ? (
              <th scope="col">
                <span className="visually-hidden">{t("releases.remove")}</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {items.map((item) => {
            const title = item.title || t("releases.untitled");
            return (
              <tr key={item.contentId} data-content-id={item.contentId}>
                <th scope="row">
                  <Link to={item.documentPath}>{title}</Link>
                  <span className="muted release-item-bucket">{item.bucketName}</span>
                </th>
                <td>
                  {item.newest ? `${t("releases.newest")} · ` : null}
                  {t("releases.version", { number: item.versionNumber })}
                </td>
                <td>
                  <PublicationBadge state={item.state} />
                </td>
                <td className="release-item-changes">
                  {item.changes === "new"
                    ? t("releases.newOnExhibits")
                    : item.changes === "same"
                      ? t("releases.sameAsPublished")
                      : item.changes.length
                        ? t("releases.changedFields", { fields: item.changes.join(", ") })
                        : null}
                  {item.comparePath ? (
                    <>
                      {" "}
                      <Link to={item.comparePath} aria-label={t("releases.compareLabel", { title })}>
                        {t("releases.compare")}
                      </Link>
                    </>
                  ) : null}
                </td>
                {editable ? (
                  <td>
                    <IntentForm intent="remove" fields={{ contentId: item.contentId }} className="button small">
                      <span aria-hidden="true">{t("releases.remove")}</span>
                      <span className="visually-hidden">{t("releases.removeLabel", { title })}</span>
                    </IntentForm>
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
