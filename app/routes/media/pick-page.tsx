import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { formatBytes } from "@core/media/bounds";
import { LIBRARY_PICK_PARAM, type LibraryQuery } from "@core/media/library";
import { dimensionsText, Preview } from "~/components/media-library/library-items";
import { BucketFilter, LibraryPagination, SearchFilter, SortFilter } from "~/components/media-library/library-filters";
import type { pickPageData } from "./media.server";

/*
 * The library for one media field (/media?pick={token}, docs/media.md "Choose from library"): the items of the
 * field's kind, searched and paged by the address (a GET form, so without JavaScript too); each fitting one has a
 * Choose button (a post: back to the form with it in the field), the others say why not in the field's own words.
 */

type PickPageData = Awaited<ReturnType<typeof pickPageData>>;

export function PickPage({ loaderData, actionData }: { loaderData: PickPageData; actionData?: { choice: string; errors: string[] } }) {
  const { t } = useTranslation();
  const { query, items, hasMore } = loaderData;
  return (
    <section className="media-library media-pick">
      <h1>{t("library.pick.title", { field: loaderData.field })}</h1>
      <p className="muted">{t("library.pick.intro", { field: loaderData.field, bucket: loaderData.bucket })}</p>
      <p>
        <Link to={loaderData.cancel} className="button small">
          {t("library.pick.cancel")}
        </Link>
      </p>
      {actionData?.errors.length ? (
        <div className="form-error" role="alert">
          <ul>
            {actionData.errors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <PickFilters query={query} buckets={loaderData.buckets} />
      {items.length === 0 ? (
        <p className="empty">{query.q || query.bucket || query.page > 1 ? t("library.noResults") : t("library.pick.empty")}</p>
      ) : (
        <ul className="media-grid">
          {items.map((item) => (
            <li key={item.contentId} className="media-card" data-media-item={item.contentId} data-fits={item.refusals.length === 0}>
              <span className="media-card-preview">
                <Preview item={item} />
              </span>
              <span className="media-card-name">{item.name}</span>
              <p className="muted media-card-facts">
                {dimensionsText(item) ? `${dimensionsText(item)}, ` : ""}
                {formatBytes(item.size)} · {item.bucket.name}
              </p>
              {item.refusals.length ? (
                <div className="media-pick-refusals">
                  <p>{t("library.pick.notFitting")}</p>
                  <ul>
                    {item.refusals.map((refusal) => (
                      <li key={refusal}>{refusal}</li>
                    ))}
                  </ul>
                </div>
              ) : (
                <Form method="post">
                  <input type="hidden" name="intent" value="pick" />
                  <input type="hidden" name={LIBRARY_PICK_PARAM} value={query.pick ?? ""} />
                  <input type="hidden" name="item" value={item.contentId} />
                  <button type="submit" className="button small primary" aria-label={t("library.pick.chooseItem", { name: item.name })}>
                    {t("library.pick.choose")}
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      )}
      <LibraryPagination query={query} hasMore={hasMore} change={{ kind: null }} />
    </section>
  );
}

function PickFilters({ query, buckets }: { query: LibraryQuery; buckets: Array<{ slug: string; name: string }> }) {
  const { t } = useTranslation();
  return (
    <Form method="get" role="search" className="media-filters">
      <input type="hidden" name={LIBRARY_PICK_PARAM} value={query.pick ?? ""} />
      <SearchFilter query={query} />
      <BucketFilter query={query} buckets={buckets} />
      <SortFilter query={query} />
      <div className="media-filter-buttons">
        <button type="submit" className="button small">
          {t("library.apply")}
        </button>
      </div>
    </Form>
  );
}
