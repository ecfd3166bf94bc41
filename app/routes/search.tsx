import type { RouteHandle } from "@core/route-handle";
import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { translate } from "@core/messages";
import { listBuckets, visibleBuckets } from "@server/content/buckets";
import { searchEverything, type SearchGroup } from "@server/content/global-search";
import { MAX_SEARCH_LENGTH } from "@core/content/search-snippet";
import { requireUser } from "@server/web/guards";
import { getRequestState } from "@server/web/request-state";
import { pageRoute } from "@server/web/respond";
import { pageTitle } from "~/lib/page-title";
import type { Route } from "./+types/search";

export const handle = { messages: ["pages"] } satisfies RouteHandle;

/** How many documents of each bucket the page lists; its overview, searched, has the rest. */
const HITS_PER_BUCKET = 10;

/*
 * /search?q=: one search over every bucket the user may see (issue 34), the top bar's search box's page: the
 * matching documents grouped by bucket, each with its title, an image it shows and the text that matched.
 */
export const loader = pageRoute(async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireUser(request, context);
  const { locale } = await getRequestState(request, context);
  const query = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, MAX_SEARCH_LENGTH);
  const buckets = visibleBuckets(await listBuckets(context.db), user);
  const groups = await searchEverything(context.db, buckets, query, { perBucket: HITS_PER_BUCKET, locale });
  return { title: translate(locale, "globalSearch.title"), query, groups };
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  pageTitle(matches, loaderData.query ? `${loaderData.title}: ${loaderData.query}` : loaderData.title);

export default function Search({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { query, groups } = loaderData;
  return (
    <section className="global-search">
      <h1>{t("globalSearch.title")}</h1>
      <Form method="get" role="search" className="search-form">
        <label htmlFor="global-search-query">{t("globalSearch.label")}</label>
        <input id="global-search-query" type="search" name="q" defaultValue={query} key={query} maxLength={MAX_SEARCH_LENGTH} />
        <button type="submit">{t("globalSearch.submit")}</button>
      </Form>
      {!query ? (
        <p className="empty">{t("globalSearch.prompt")}</p>
      ) : groups.length === 0 ? (
        <p className="empty" role="status">
          {t("globalSearch.empty", { query })}
        </p>
      ) : (
        <>
          <p role="status">{t("globalSearch.summary", { count: groups.length })}</p>
          {groups.map((group) => (
            <SearchGroupList key={group.bucket.slug} group={group} />
          ))}
        </>
      )}
    </section>
  );
}

function SearchGroupList({ group }: { group: SearchGroup }) {
  const { t } = useTranslation();
  const headingId = `search-${group.bucket.slug}`;
  return (
    <section className="search-group" aria-labelledby={headingId}>
      <h2 id={headingId}>{group.bucket.name}</h2>
      <ul className="search-hits" aria-label={t("globalSearch.results", { bucket: group.bucket.name })}>
        {group.hits.map((hit) => (
          <li key={hit.contentId}>
            {hit.imageId ? (
              <img src={`/api/v1/media/image/${hit.imageId}`} alt="" loading="lazy" width={48} height={48} />
            ) : (
              <span className="search-hit-blank" aria-hidden="true" />
            )}
            <div>
              <Link to={hit.path} className="search-hit-title">
                {hit.title || t("overview.untitled")}
              </Link>
              {hit.snippet ? (
                <p className="search-hit-snippet">
                  {hit.snippet.before}
                  <mark>{hit.snippet.match}</mark>
                  {hit.snippet.after}
                </p>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
      {group.more ? <Link to={group.allPath}>{t("globalSearch.all", { bucket: group.bucket.name })}</Link> : null}
    </section>
  );
}
