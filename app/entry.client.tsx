import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { createI18n } from "./lib/i18n";
import { normalizeLocale } from "../core/locales";
import { RequestContext } from "./lib/nonce";

const i18n = createI18n(normalizeLocale(document.documentElement.lang) ?? "en");
const requestId = document.querySelector<HTMLMetaElement>('meta[name="request-id"]')?.content;

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
