import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { duplicatePath, type ScreenBucket } from "@core/content/screens";

/*
 * An overview's table of documents (routes/bucket-overview.tsx and the session overviews): the table with its heads,
 * and each row's Duplicate and Delete links.
 */

/**
 * An overview's table: its columns' heads (`head`), then the row actions' column, and its rows; `selectable` puts a
 * column for the rows' SelectBoxes first.
 */
export function OverviewTable({
  className,
  head,
  selectable = false,
  children,
}: {
  className: string;
  head: ReactNode;
  selectable?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <table className={className}>
      <thead>
        <tr>
          {selectable ? (
            <th scope="col" className="select-cell">
              <span className="visually-hidden">{t("bulk.bar")}</span>
            </th>
          ) : null}
          {head}
          <th scope="col">
            <span className="visually-hidden">{t("overview.actions")}</span>
          </th>
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

export interface RowLabels {
  duplicate: string;
  delete: string;
}

/**
 * Its labels come from the page: useTranslation per row copied the i18n instance for every row. Plain links, which
 * the page's useClientLinks navigates: a <Link> per row cost more than the rest of the row.
 */
export function RowActions({
  bucket,
  contentId,
  here,
  labels,
}: {
  bucket: ScreenBucket;
  contentId: string;
  here: string;
  labels: RowLabels;
}) {
  const separator = here.includes("?") ? "&" : "?";
  return (
    <span className="row-links">
      <a href={duplicatePath(bucket, contentId)}>{labels.duplicate}</a>
      <a href={`${here}${separator}delete=${contentId}`} data-prevent-scroll-reset>
        {labels.delete}
      </a>
    </span>
  );
}
