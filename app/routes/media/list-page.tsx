import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { libraryQueryString, MISSING_ALT_COUNT_LIMIT, type LibraryQuery } from "@core/media/library";
import { FlashNotice } from "~/components/flash-notice";
import { LibraryGrid, LibraryTable, RefusedDeletions } from "~/components/media-library/library-items";
import { UploadForm } from "~/components/media-library/upload-form";
import { BucketFilter, LibraryPagination, SearchFilter, SortFilter } from "~/components/media-library/library-filters";
import type { listPageData } from "./media.server";
import type { libraryAction } from "./media-actions.server";

/*
 * The library's list (app/routes/media/library.tsx, docs/media.md): its upload, its filters (a GET form, so without
 * JavaScript too), the items as a grid or a table inside the delete form, and its pages.
 */

type ListPageData = Awaited<ReturnType<typeof listPageData>>;
type ListActionData = Extract<Awaited<ReturnType<typeof libraryAction>>["data"], { intent: unknown }>;

export function ListPage({ loaderData, actionData }: { loaderData: ListPageData; actionData: ListActionData | undefined }) {
  const { t } = useTranslation();
  const { query, items, hasMore } = loaderData;
  const link = (change: Partial<LibraryQuery>) => libraryQueryString(query, change) || "?";
  const deleted = actionData?.deleted || loaderData.deleted;
  const upload = actionData?.intent === "upload" ? actionData : null;
  const filtered = Boolean(query.q || query.kind || query.bucket || query.use || query.uploader || query.missingAlt);
  return (
    <section className="media-library">
      <div className="media-library-header">
        <h1>{t("library.title")}</h1>
      </div>
      <p className="muted">{t("library.intro")}</p>
      <UploadForm
        buckets={loaderData.buckets}
        chosen={upload?.bucket ?? query.bucket ?? loaderData.buckets[0]?.slug ?? null}
        outcomes={upload?.uploaded ?? []}
        refusal={upload?.refusal ?? null}
      />
      {deleted ? <FlashNotice>{t("library.deleted", { count: deleted })}</FlashNotice> : null}
      {actionData?.intent === "delete" && actionData.refusal ? (
        <p className="notice-warning" role="alert">
          {t("library.nothingSelected")}
        </p>
      ) : null}
      {actionData?.refused.length ? <RefusedDeletions refused={actionData.refused} /> : null}
      <LibraryFilters query={query} buckets={loaderData.buckets} uploaders={loaderData.uploaders} />
      <div className="media-library-summary">
        {loaderData.missingAlt ? (
          <Link to={link({ missingAlt: true, kind: "image", page: 1 })} className="media-missing-alt">
            {loaderData.missingAlt >= MISSING_ALT_COUNT_LIMIT
              ? t("library.missingAltMany", { count: MISSING_ALT_COUNT_LIMIT })
              : t("library.missingAltCount", { count: loaderData.missingAlt })}
          </Link>
        ) : (
          <span />
        )}
        <nav aria-label={t("library.view")} className="media-view-switch">
          {(["grid", "list"] as const).map((view) => (
            <Link key={view} to={link({ view })} aria-current={query.view === view ? "page" : undefined}>
              {t(`library.views.${view}`)}
            </Link>
          ))}
        </nav>
      </div>
      {items.length === 0 ? (
        <p className="empty">{filtered || query.page > 1 ? t("library.noResults") : t("library.empty")}</p>
      ) : (
        <Form method="post" className="media-library-items">
          {query.view === "grid" ? <LibraryGrid items={items} /> : <LibraryTable items={items} />}
          <div className="button-row">
            <button type="submit" className="button danger">
              {t("library.deleteSelected")}
            </button>
          </div>
        </Form>
      )}
      <LibraryPagination query={query} hasMore={hasMore} />
    </section>
  );
}

function LibraryFilters({
  query,
  buckets,
  uploaders,
}: {
  query: LibraryQuery;
  buckets: Array<{ slug: string; name: string }>;
  uploaders: Array<{ id: string; name: string }>;
}) {
  const { t } = useTranslation();
  return (
    <Form method="get" role="search" className="media-filters">
      {query.view !== "grid" ? <input type="hidden" name="view" value={query.view} /> : null}
      <SearchFilter query={query} />
      <div className="media-filter">
        <label htmlFor="media-kind">{t("library.kind")}</label>
        <select id="media-kind" name="kind" defaultValue={query.kind ?? ""}>
          <option value="">{t("library.anyKind")}</option>
          {(["image", "video", "file"] as const).map((kind) => (
            <option key={kind} value={kind}>
              {t(`media.types.${kind}`)}
            </option>
          ))}
        </select>
      </div>
      <BucketFilter query={query} buckets={buckets} />
      <div className="media-filter">
        <label htmlFor="media-use">{t("library.use")}</label>
        <select id="media-use" name="use" defaultValue={query.use ?? ""}>
          <option value="">{t("library.anyUse")}</option>
          <option value="used">{t("library.used")}</option>
          <option value="unused">{t("library.unused")}</option>
        </select>
      </div>
      <div className="media-filter">
        <label htmlFor="media-uploader">{t("library.uploader")}</label>
        <select id="media-uploader" name="uploader" defaultValue={query.uploader ?? ""}>
          <option value="">{t("library.anyUploader")}</option>
          {uploaders.map((uploader) => (
            <option key={uploader.id} value={uploader.id}>
              {uploader.name}
            </option>
          ))}
        </select>
      </div>
      <SortFilter query={query} />
      <label className="media-filter-check">
        <input type="checkbox" name="alt" value="missing" defaultChecked={query.missingAlt} /> {t("library.missingAltFilter")}
      </label>
      <div className="media-filter-buttons">
        <button type="submit" className="button small">
          {t("library.apply")}
        </button>
        <Link to={query.view === "grid" ? "/media" : "/media?view=list"} className="button small">
          {t("library.clear")}
        </Link>
      </div>
    </Form>
  );
}
