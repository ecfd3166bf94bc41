import { useEffect, useLayoutEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation, useMatches, useRouteError } from "react-router";
import { hasPermission, publicUser } from "@server/accounts/users";
import { visibleBuckets } from "@server/content/buckets";
import type { Route } from "./+types/root";
import { ErrorPage } from "./components/error-page";
import { IEWarning } from "./components/ie-warning";
import { LoadingBar } from "./components/loading-bar";
import { TopBar } from "./components/top-bar";
import { internetExplorerVersion } from "@core/browser";
import { useNonce, useRequestId } from "./lib/nonce";
import { CATALOGUE_URLS } from "./lib/catalogue-urls";
import { cataloguePartsOf } from "@core/catalogue-parts";
import { useInterfaceLanguage } from "./lib/i18n";
import { normalizeLocale } from "@core/locales";
import { getRequestState } from "@server/web/request-state";
import { useRootData } from "./lib/root-data";
import { ScreenTableContext } from "./lib/screen-table";
import { SCREEN_TABLE } from "@screens/table";
import { registerScreens } from "@core/content/screens";
import "./styles/app.css";
import "./styles/references.css";
import "./styles/session-editor.css";
import { bucketName } from "@core/content/bucket-name";
import { pageTitle } from "./lib/page-title";

// The composition root of the pages (server render and browser): the screens' table, for every link to a bucket.
registerScreens(SCREEN_TABLE);

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

/** Client state of spec §4, served with the first render. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  // A bucket's pages (`:bucket`): its row is read in the session's statement, for the route's guard.
  const { session, user, buckets: allBuckets, locale } = await getRequestState(request, context, { bucketSlug: params.bucket });
  // Spec §6: seeing bucket links takes the user permission (without it a signed-in person only gets /no-access).
  const buckets = user && hasPermission(user, "user") ? visibleBuckets(allBuckets, user) : [];
  return {
    locale,
    user: user ? publicUser(user) : null,
    // Each bucket by its name for the interface language (core/content/bucket-name.ts).
    buckets: buckets.map(({ id, slug, name, names, singleton, screen }) => ({
      _id: id,
      slug,
      name: bucketName({ name, names }, locale),
      singleton,
      screen,
    })),
    config: {
      productName: context.config.PRODUCT_NAME,
      defaultLocale: context.config.DEFAULT_LOCALE,
      auth: { web: { allowSignup: context.config.ALLOW_SIGNUP } },
    },
    hideIEWarning: session.get("hideIEWarning") ?? false,
    ieVersion: internetExplorerVersion(request.headers.get("User-Agent")),
    indexView: session.get("indexView") ?? "list",
    lastVisitedPageNumber: session.get("lastVisitedPageNumber") ?? 1,
  };
}

// The default title (the product's name), and every error page's: errors below the root render in its boundary.
export const meta: Route.MetaFunction = ({ matches, error }) => pageTitle(matches, null, error);

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRootData();
  const nonce = useNonce();
  const requestId = useRequestId();
  const { i18n, t } = useTranslation();
  const error = useRouteError();
  const locale = data?.locale ?? normalizeLocale(i18n.language) ?? "en";
  const parts = cataloguePartsOf(useMatches().map((match) => match.handle));
  // Marks <main> with the location React has committed: a navigation's router state is ahead of the page until its
  // transition commits (tests wait on the two agreeing; tests/support/content-browser.ts). Set after the commit, not
  // rendered: the server knows no key, and after a reload the browser's history entry carries the last one.
  const main = useRef<HTMLElement>(null);
  const { key: locationKey } = useLocation();
  useLayoutEffect(() => {
    if (main.current) main.current.dataset.locationKey = locationKey;
  }, [locationKey]);
  return (
    <html lang={locale} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {requestId ? <meta name="request-id" content={requestId} /> : null}
        {/* Spec §1's page head default, in the interface language; in the Layout, so a route's own meta (which replaces the title) keeps it. */}
        <meta name="description" content={t("meta.description", { lng: locale })} />
        {/* The page's messages, the parts its routes need, which the browser fetches before hydrating (entry.client.tsx). */}
        {parts.map((part) => (
          <link key={part} rel="preload" href={CATALOGUE_URLS[locale][part]} as="fetch" crossOrigin="anonymous" />
        ))}
        <Meta />
        <Links />
      </head>
      <body>
        <LoadingBar failed={Boolean(error)} />
        <TopBar />
        <main className="page" ref={main}>
          {children}
        </main>
        <footer className="footer" />
        {data && data.ieVersion && !data.hideIEWarning ? <IEWarning version={data.ieVersion} /> : null}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { i18n } = useTranslation();
  useInterfaceLanguage(i18n, loaderData.locale, cataloguePartsOf(useMatches().map((match) => match.handle)));
  return (
    <ScreenTableContext.Provider value={SCREEN_TABLE}>
      <Outlet />
    </ScreenTableContext.Provider>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  useReloadOnChunkLoadFailure(error);
  return <ErrorPage error={error} />;
}

const CHUNK_RELOAD_KEY = "vitrine:chunk-reload-at";

/** Spec §4: a chunk-loading failure reloads the page, at most once per 60 seconds. */
function useReloadOnChunkLoadFailure(error: unknown) {
  const location = useLocation();
  useEffect(() => {
    const message = error instanceof Error ? error.message : "";
    if (!/dynamically imported module|Importing a module script failed|error loading dynamically/i.test(message)) return;
    const last = Number(sessionStorage.getItem(CHUNK_RELOAD_KEY) ?? 0);
    if (Date.now() - last < 60_000) return;
    sessionStorage.setItem(CHUNK_RELOAD_KEY, String(Date.now()));
    window.location.reload();
  }, [error, location.key]);
}
