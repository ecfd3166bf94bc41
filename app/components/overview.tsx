import { useRef, type ReactNode } from "react";
import { useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { ConfirmIntentDialog } from "~/components/confirm-dialog";
import { FlashNotice } from "~/components/flash-notice";
import { WhereUsedList } from "~/components/where-used";
import { ListHeader, Pagination, searchPageLink } from "~/components/list-tools";
import { newDocumentPath, type ScreenBucket } from "@core/content/screens";
import type { PublicationState } from "@core/content/publication";
import { useClientLinks } from "~/lib/client-links";
import { BulkBar } from "~/components/bulk-bar";
import { OverviewTools } from "~/components/overview-tools";

/*
 * The page around a bucket's overview list, which the session overviews show too (routes/bucket-overview.tsx): its
 * heading, notices, pages and delete confirmation. The tools above the list are in overview-tools.tsx, the table and
 * its rows' links in overview-table.tsx.
 */

type WhereUsed = Parameters<typeof WhereUsedList>[0]["whereUsed"];

/** What the overview page around a list reads of its loader's data. */
export interface OverviewFrameData {
  bucket: ScreenBucket & { name: string };
  search: string;
  view: "list" | "grid";
  deleted: boolean;
  page: number;
  pages: number | null;
  hasNext: boolean;
  whereUsed: WhereUsed | null;
  /** The publication state filter (docs/publishing.md), null for all; absent where the overview has none. */
  state?: PublicationState | null;
  /** The translation filter (a locale the documents lack), and the locales it offers (none: no filter). */
  missing?: string | null;
  locales?: readonly string[];
}

/**
 * An overview page around its list (`children`): the heading with the New button, the tools, `notes`, the notices
 * of a delete; after the list its pages and the delete confirmation (`toDelete`). Its plain links (RowActions)
 * navigate through useClientLinks.
 */
export function OverviewFrame({
  className,
  data,
  actionData,
  toDelete,
  notes,
  pageIds,
  children,
}: {
  className: string;
  data: OverviewFrameData;
  actionData: object | undefined;
  toDelete: { contentId: string; versionId: string; title: string } | undefined;
  notes?: ReactNode;
  /** The listed documents, where the list has bulk actions (its rows' SelectBox): the bar above it. */
  pageIds?: readonly string[];
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const list = useRef<HTMLElement>(null);
  useClientLinks(list);
  return (
    <section className={className} ref={list}>
      <ListHeader title={data.bucket.name} create={{ to: newDocumentPath(data.bucket), text: t("overview.new") }} />
      <OverviewTools
        search={data.search}
        view={data.view}
        state={data.state}
        translation={{ missing: data.missing ?? null, locales: data.locales ?? [] }}
        transferPath={`/b/${encodeURIComponent(data.bucket.slug)}`}
      />
      {notes}
      {data.deleted && !actionData && !toDelete ? <FlashNotice>{t("form.deleted")}</FlashNotice> : null}
      {actionData && "deleteConflict" in actionData ? (
        <p className="form-error" role="alert">
          {t("overview.deleteConflict")}
        </p>
      ) : null}
      {pageIds?.length ? (
        <BulkBar
          bucketSlug={data.bucket.slug}
          pageIds={pageIds}
          search={data.search}
          state={data.state ?? null}
          missing={data.missing ?? null}
        />
      ) : null}
      {children}
      <OverviewPagination
        page={data.page}
        pages={data.pages}
        hasNext={data.hasNext}
        search={data.search}
        state={data.state}
        missing={data.missing ?? null}
      />
      {toDelete ? <DeleteDialog document={toDelete} whereUsed={data.whereUsed} /> : null}
    </section>
  );
}

export function OverviewPagination({
  page,
  pages,
  hasNext,
  search,
  state = null,
  missing = null,
}: {
  page: number;
  pages: number | null;
  hasNext: boolean;
  search: string;
  state?: PublicationState | null;
  missing?: string | null;
}) {
  const { t } = useTranslation();
  return (
    <Pagination
      label={t("overview.pages")}
      position={pages ? t("overview.pageOf", { page, pages }) : t("overview.page", { page })}
      previous={page > 1 ? { to: searchPageLink(search, page - 1, { state, missing }), text: t("overview.previous") } : null}
      next={hasNext ? { to: searchPageLink(search, page + 1, { state, missing }), text: t("overview.next") } : null}
    />
  );
}

/** The delete confirmation (?delete=): the documents that refer to this one, then a form post. */
export function DeleteDialog({
  document,
  whereUsed,
}: {
  document: { contentId: string; versionId: string; title: string };
  whereUsed: WhereUsed | null;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <ConfirmIntentDialog
      title={t("overview.deleteTitle")}
      cancelTo={location.pathname + location.search.replace(/[?&]delete=[^&]*/, "")}
      intent="delete"
      fields={{ contentId: document.contentId, versionId: document.versionId }}
      confirmText={t("form.delete")}
    >
      <p>{t("overview.deleteText", { title: document.title || t("overview.untitled") })}</p>
      {whereUsed ? <WhereUsedList whereUsed={whereUsed} /> : null}
    </ConfirmIntentDialog>
  );
}
