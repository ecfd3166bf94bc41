import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { libraryQueryString, LIBRARY_SORTS, type LibraryQuery } from "@core/media/library";

/*
 * The controls the library's list and its page for a field (app/routes/media/) share: the search, bucket and sort
 * of their GET forms, and the links to the previous and next page.
 */

export function SearchFilter({ query }: { query: LibraryQuery }) {
  const { t } = useTranslation();
  return (
    <div className="media-filter media-filter-search">
      <label htmlFor="media-q">{t("library.search")}</label>
      <input id="media-q" type="search" name="q" defaultValue={query.q} placeholder={t("library.searchPlaceholder")} />
    </div>
  );
}

export function BucketFilter({ query, buckets }: { query: LibraryQuery; buckets: Array<{ slug: string; name: string }> }) {
  const { t } = useTranslation();
  return (
    <div className="media-filter">
      <label htmlFor="media-bucket">{t("library.bucket")}</label>
      <select id="media-bucket" name="bucket" defaultValue={query.bucket ?? ""}>
        <option value="">{t("library.anyBucket")}</option>
        <BucketOptions buckets={buckets} />
      </select>
    </div>
  );
}

/** The buckets as a select's options, by slug. */
export function BucketOptions({ buckets }: { buckets: ReadonlyArray<{ slug: string; name: string }> }) {
  return buckets.map((bucket) => (
    <option key={bucket.slug} value={bucket.slug}>
      {bucket.name}
    </option>
  ));
}

export function SortFilter({ query }: { query: LibraryQuery }) {
  const { t } = useTranslation();
  return (
    <div className="media-filter">
      <label htmlFor="media-sort">{t("library.sort")}</label>
      <select id="media-sort" name="sort" defaultValue={query.sort}>
        {LIBRARY_SORTS.map((sort) => (
          <option key={sort} value={sort}>
            {t(`library.sorts.${sort}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Previous and next page, when there is one; `change` is applied to every link (the page for a field drops its kind). */
export function LibraryPagination({
  query,
  hasMore,
  change = {},
}: {
  query: LibraryQuery;
  hasMore: boolean;
  change?: Partial<LibraryQuery>;
}) {
  const { t } = useTranslation();
  if (query.page === 1 && !hasMore) return null;
  const link = (page: number) => libraryQueryString(query, { ...change, page }) || "?";
  return (
    <nav className="pagination" aria-label={t("library.page", { page: query.page })}>
      {query.page > 1 ? <Link to={link(query.page - 1)}>{t("library.previous")}</Link> : <span />}
      <span>{t("library.page", { page: query.page })}</span>
      {hasMore ? <Link to={link(query.page + 1)}>{t("library.next")}</Link> : <span />}
    </nav>
  );
}
