import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, NavLink, useLocation, useMatches, useRouteError } from "react-router";
import type { RouteHandle } from "@core/route-handle";
import { useRootData } from "~/lib/root-data";
import { overviewPath } from "@core/content/screens";

/** More buckets than this collapse the top-bar links (spec §2). */
export const MAX_TOP_BAR_BUCKETS = 7;

export function TopBar() {
  const data = useRootData();
  const { t } = useTranslation();
  const location = useLocation();
  const matches = useMatches();
  const error = useRouteError();
  // A page that stands alone (a shareable link) shows the brand, not a link into the product, and no user.
  const standalone =
    !error && matches.some((match) => (match.handle as RouteHandle | undefined)?.standalone && match.loaderData !== undefined);
  const user = standalone ? null : data?.user;
  const buckets = data?.buckets ?? [];
  const collapsed = buckets.length > MAX_TOP_BAR_BUCKETS;
  return (
    <header className="top-bar">
      {standalone ? (
        <span className="brand">{data?.config.productName ?? "Vitrine"}</span>
      ) : (
        <Link to="/" className="brand" viewTransition>
          {data?.config.productName ?? "Vitrine"}
        </Link>
      )}
      {user && !collapsed && buckets.length > 0 ? (
        <nav aria-label={t("nav.mainNavigation")} className="bucket-links">
          {buckets.map((bucket) => (
            <NavLink key={bucket.slug} to={overviewPath(bucket)} viewTransition>
              {bucket.name}
            </NavLink>
          ))}
        </nav>
      ) : null}
      {user && collapsed && location.pathname !== "/" ? (
        <Link to="/" className="back-to-overview" viewTransition>
          {t("nav.backToOverview")}
        </Link>
      ) : null}
      <div className="top-bar-end">
        {user ? <TopBarSearch /> : null}
        {user ? (
          <NavLink to="/media" className="media-link" viewTransition>
            {t("nav.media")}
          </NavLink>
        ) : null}
        <LanguageSwitch />
        {user ? <UserMenu name={user.name} isAdmin={user.permissions.includes("admin")} /> : null}
      </div>
    </header>
  );
}

/**
 * The search over everything (/search): a plain GET form, which with JavaScript `/` (outside a text field) and
 * Ctrl-K or ⌘K focus from anywhere.
 */
function TopBarSearch() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const focus = (event: KeyboardEvent) => {
      const typing = (event.target as HTMLElement).closest("input, textarea, select, [contenteditable]");
      if ((event.key === "k" && (event.ctrlKey || event.metaKey)) || (event.key === "/" && !typing)) {
        event.preventDefault();
        input.current?.select();
      }
    };
    document.addEventListener("keydown", focus);
    return () => document.removeEventListener("keydown", focus);
  }, []);
  const query = pathname === "/search" ? (new URLSearchParams(search).get("q") ?? "") : "";
  return (
    <Form method="get" action="/search" role="search" className="top-search">
      <input
        ref={input}
        type="search"
        name="q"
        key={query}
        defaultValue={query}
        aria-label={t("nav.search")}
        placeholder={t("nav.searchPlaceholder")}
        aria-keyshortcuts="/ Control+K"
      />
    </Form>
  );
}

function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const other = i18n.language === "nl" ? "en" : "nl";
  return (
    <Form method="post" action="/session/locale" className="language-switch">
      <input type="hidden" name="locale" value={other} />
      <input type="hidden" name="redirect_to" value={location.pathname + location.search} />
      <button type="submit" lang={other} aria-label={`${t("nav.language")}: ${t("nav.switchLanguage")}`}>
        {t("nav.switchLanguage")}
      </button>
    </Form>
  );
}

/** A <details> menu: opens and closes without JavaScript. */
/** The entries are the spec's (§2 Layout): Profile, Settings for admins, Signout. */
function UserMenu({ name, isAdmin }: { name: string; isAdmin: boolean }) {
  const { t } = useTranslation();
  return (
    <details className="user-menu">
      {/* The visible name starts the accessible name (WCAG 2.5.3 label in name): 'Eva Editor, User menu'. */}
      <summary aria-label={`${name}, ${t("nav.userMenu")}`}>{name}</summary>
      <ul role="menu">
        <li role="none">
          <Link role="menuitem" to="/profile">
            {t("nav.profile")}
          </Link>
        </li>
        {isAdmin ? (
          <li role="none">
            <Link role="menuitem" to="/settings">
              {t("nav.settings")}
            </Link>
          </li>
        ) : null}
        <li role="none">
          <a role="menuitem" href="/logout">
            {t("nav.signout")}
          </a>
        </li>
      </ul>
    </details>
  );
}
