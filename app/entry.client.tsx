import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { createI18n } from "./lib/i18n";
import { loadCatalogue } from "@core/catalogues";
import { CATALOGUE_PARTS } from "@core/catalogue-parts";
import { normalizeLocale } from "@core/locales";
import { CATALOGUE_URLS } from "./lib/catalogue-urls";
import { RequestContext } from "./lib/nonce";
import { hydrationWaitsFor } from "./lib/before-hydration";

const locale = normalizeLocale(document.documentElement.lang) ?? "en";
const requestId = document.querySelector<HTMLMetaElement>('meta[name="request-id"]')?.content;

function hydrate() {
  const i18n = createI18n(locale);
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RequestContext.Provider value={{ requestId }}>
          <I18nextProvider i18n={i18n}>
            <HydratedRouter />
          </I18nextProvider>
        </RequestContext.Provider>
      </StrictMode>,
    );
  });
}

// The page's messages first: the parts its <head> preloads (root.tsx for its routes, on-demand-fields.tsx for a
// media field), and what the route modules, which ran before this one, fetch for the page (before-hydration.ts).
// Should they not arrive, the page stays as the server rendered it, which works without JavaScript, rather than
// hydrating with message keys for text.
const parts = CATALOGUE_PARTS.filter(
  (part) => part === "common" || document.querySelector(`link[rel="preload"][href="${CATALOGUE_URLS[locale][part]}"]`),
);
Promise.all([loadCatalogue(locale, parts), ...hydrationWaitsFor]).then(hydrate, (error: unknown) => console.error(error));
