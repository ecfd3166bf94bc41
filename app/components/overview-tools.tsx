import { Form, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { SearchForm } from "~/components/list-tools";
import { PUBLICATION_STATES, type PublicationState } from "@core/content/publication";

/*
 * The tools above an overview's list (components/overview.tsx): the search box with its filters, the list/grid
 * switch, and the links to import, translations and the export menu.
 */

/**
 * The search box (with the publication state filter where the overview has one: `state`, null for all) and the
 * list/grid switch (kept in the session through /session/index-view).
 */
export function OverviewTools({
  search,
  view,
  state,
  translation = { missing: null, locales: [] },
  transferPath,
}: {
  search: string;
  view: "list" | "grid";
  state?: PublicationState | null;
  /** The translation filter's locale and its choices (none: the bucket does not translate). */
  translation?: { missing: string | null; locales: readonly string[] };
  /** The bucket's generic path, under which its export and import are. */
  transferPath: string;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <div className="overview-tools">
      <SearchForm id="overview-search" search={search} label={t("overview.search")} button={t("overview.searchButton")}>
        {state === undefined ? null : (
          <>
            <label htmlFor="overview-state" className="visually-hidden">
              {t("overview.stateFilter")}
            </label>
            <select id="overview-state" name="state" defaultValue={state ?? ""} key={state ?? ""}>
              <option value="">{t("overview.allStates")}</option>
              {PUBLICATION_STATES.map((option) => (
                <option key={option} value={option}>
                  {t(`publicationState.${option}`)}
                </option>
              ))}
            </select>
          </>
        )}
        {translation.locales.length ? (
          <>
            <label htmlFor="overview-missing" className="visually-hidden">
              {t("overview.translationFilter")}
            </label>
            <select id="overview-missing" name="missing" defaultValue={translation.missing ?? ""} key={translation.missing ?? ""}>
              <option value="">{t("overview.allTranslations")}</option>
              {translation.locales.map((locale) => (
                <option key={locale} value={locale}>
                  {t("overview.missingLocale", { locale: locale.toUpperCase() })}
                </option>
              ))}
            </select>
          </>
        ) : null}
      </SearchForm>
      <Form method="post" action="/session/index-view" className="view-switch">
        <input type="hidden" name="redirect_to" value={location.pathname + location.search} />
        <button type="submit" name="view" value="list" aria-pressed={view === "list"}>
          {t("overview.list")}
        </button>
        <button type="submit" name="view" value="grid" aria-pressed={view === "grid"}>
          {t("overview.grid")}
        </button>
      </Form>
      <div className="transfer-links">
        <a href={`${transferPath}/import`} className="button">
          {t("transfer.importLink")}
        </a>
        {translation.locales.length ? (
          <a href={`${transferPath}/translations${searchPageQuery(search, state ?? null)}`} className="button">
            {t("translations.link")}
          </a>
        ) : null}
        <ExportMenu path={`${transferPath}/export`} search={search} state={state ?? null} missing={translation.missing} />
      </div>
    </div>
  );
}

/** The overview's search and state filter as a query (`?q=…&state=…`, "" for none): what the translations page exports. */
function searchPageQuery(search: string, state: PublicationState | null): string {
  const query = new URLSearchParams([...(search ? [["q", search]] : []), ...(state ? [["state", state]] : [])]).toString();
  return query ? `?${query}` : "";
}

/** Downloads of the documents the overview lists (all its pages): a <details> menu, so it opens without JavaScript. */
function ExportMenu({
  path,
  search,
  state,
  missing,
}: {
  path: string;
  search: string;
  state: PublicationState | null;
  missing: string | null;
}) {
  const { t } = useTranslation();
  const href = (format: "csv" | "json" | "ndjson") => {
    const query = new URLSearchParams({ format });
    if (search) query.set("q", search);
    if (state) query.set("state", state);
    if (missing) query.set("missing", missing);
    return `${path}?${query}`;
  };
  return (
    <details className="export-menu">
      <summary>{t("transfer.export")}</summary>
      <div className="export-menu-panel">
        <p>{t("transfer.exportHint")}</p>
        <ul>
          {(["csv", "json", "ndjson"] as const).map((format) => (
            <li key={format}>
              <a href={href(format)} download>
                {t(`transfer.${format}`)}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </details>
  );
}
