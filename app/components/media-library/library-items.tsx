import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatBytes } from "@core/media/bounds";
import { dateTimeFormat } from "@core/date-formats";
import type { LibraryItem, RefusedDeletion } from "@core/media/library";

/* The media library's items (app/routes/media/library.tsx): as cards or as a table, each with a checkbox of the delete form. */

type Item = Pick<
  LibraryItem,
  | "contentId"
  | "kind"
  | "name"
  | "size"
  | "width"
  | "height"
  | "duration"
  | "status"
  | "uploadedBy"
  | "createdAt"
  | "uses"
  | "missingAlt"
  | "previewUrl"
  | "bucket"
>;

export const itemPath = (contentId: string) => `/media/${contentId}`;

export function dimensionsText(item: Pick<Item, "width" | "height" | "duration">): string {
  const size = item.width && item.height ? `${item.width} × ${item.height}` : "";
  const duration = item.duration ? `${Math.round(item.duration * 10) / 10} s` : "";
  return [size, duration].filter(Boolean).join(", ");
}

/** The picture of an item: the image, a video's still, or the kind's word where there is none. */
export function Preview({ item }: { item: Pick<Item, "previewUrl" | "kind"> }) {
  const { t } = useTranslation();
  return item.previewUrl ? (
    <img src={item.previewUrl} alt="" loading="lazy" decoding="async" className="media-preview" />
  ) : (
    <span className={`media-preview media-preview-${item.kind}`} aria-hidden="true">
      {t(`media.types.${item.kind}`)}
    </span>
  );
}

function Uploaded({ item }: { item: Pick<Item, "uploadedBy" | "createdAt"> }) {
  const { t, i18n } = useTranslation();
  const date = dateTimeFormat(i18n.language, { dateStyle: "medium" }).format(new Date(item.createdAt));
  return <span suppressHydrationWarning>{item.uploadedBy ? t("library.uploadedBy", { name: item.uploadedBy, date }) : date}</span>;
}

function Uses({ count }: { count: number }) {
  const { t } = useTranslation();
  return count ? <span>{t("library.uses", { count })}</span> : <span className="muted">{t("library.notUsed")}</span>;
}

function SelectBox({ item }: { item: Pick<Item, "contentId" | "name"> }) {
  const { t } = useTranslation();
  return <input type="checkbox" name="item" value={item.contentId} aria-label={t("library.selectItem", { name: item.name })} />;
}

function Warnings({ item }: { item: Pick<Item, "missingAlt" | "status"> }) {
  const { t } = useTranslation();
  return (
    <>
      {item.status !== "completed" ? (
        <span className={`media-state media-state-${item.status}`}>{t(`library.states.${item.status}`)}</span>
      ) : null}
      {item.missingAlt.length ? (
        <span className="media-alt-missing">{t("library.missingAlt", { locales: item.missingAlt.join(", ") })}</span>
      ) : null}
    </>
  );
}

export function LibraryGrid({ items }: { items: readonly Item[] }) {
  const { t } = useTranslation();
  return (
    <ul className="media-grid">
      {items.map((item) => (
        <li key={item.contentId} className="media-card" data-media-item={item.contentId}>
          <Link to={itemPath(item.contentId)} className="media-card-preview" tabIndex={-1} aria-hidden="true">
            <Preview item={item} />
          </Link>
          <div className="media-card-body">
            <SelectBox item={item} />
            <Link to={itemPath(item.contentId)} className="media-card-name">
              {item.name}
            </Link>
          </div>
          <p className="muted media-card-facts">
            {t(`media.types.${item.kind}`)}
            {dimensionsText(item) ? `, ${dimensionsText(item)}` : ""}, {formatBytes(item.size)}
          </p>
          <p className="media-card-facts">
            <Uses count={item.uses} />
          </p>
          <Warnings item={item} />
        </li>
      ))}
    </ul>
  );
}

export function LibraryTable({ items }: { items: readonly Item[] }) {
  const { t } = useTranslation();
  return (
    <div className="table-scroll">
      <table className="content-table media-table">
        <caption className="visually-hidden">{t("library.title")}</caption>
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">{t("library.columns.select")}</span>
            </th>
            <th scope="col">
              <span className="visually-hidden">{t("library.columns.preview")}</span>
            </th>
            <th scope="col">{t("library.columns.name")}</th>
            <th scope="col">{t("library.columns.kind")}</th>
            <th scope="col">{t("library.columns.dimensions")}</th>
            <th scope="col">{t("library.columns.size")}</th>
            <th scope="col">{t("library.columns.uploaded")}</th>
            <th scope="col">{t("library.columns.uses")}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.contentId} data-media-item={item.contentId}>
              <td>
                <SelectBox item={item} />
              </td>
              <td className="media-table-preview">
                <Preview item={item} />
              </td>
              <th scope="row">
                <Link to={itemPath(item.contentId)}>{item.name}</Link>
                <Warnings item={item} />
              </th>
              <td>{t(`media.types.${item.kind}`)}</td>
              <td>{dimensionsText(item)}</td>
              <td>{formatBytes(item.size)}</td>
              <td>
                <Uploaded item={item} />
              </td>
              <td>
                <Uses count={item.uses} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The items a delete left alone, each with the documents that use it. */
export function RefusedDeletions({ refused }: { refused: readonly RefusedDeletion[] }) {
  const { t } = useTranslation();
  return (
    <div className="notice-warning media-refused" role="alert">
      <p>{t("library.refused")}</p>
      <ul>
        {refused.map((item) => (
          <li key={item.contentId}>
            <Link to={itemPath(item.contentId)}>{item.name}</Link>
            <UseList uses={item.uses} hidden={item.hiddenUses} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Documents using an item, linked, with the count of those the user cannot see. */
export function UseList({ uses, hidden }: { uses: RefusedDeletion["uses"]; hidden: number }) {
  const { t } = useTranslation();
  return (
    <ul className="media-uses">
      {uses.map((use) => (
        <li key={use.contentId}>
          <Link to={use.path}>{use.title || t("overview.untitled")}</Link> <span className="muted">({use.bucket.name})</span>
        </li>
      ))}
      {hidden ? <li className="muted">{t("library.hiddenUses", { count: hidden })}</li> : null}
    </ul>
  );
}
