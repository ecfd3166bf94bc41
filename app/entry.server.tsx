import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "react-router";
import { ServerRouter } from "react-router";
import type { i18n as I18n } from "i18next";
import { createI18n } from "./lib/i18n";
import { normalizeLocale, type Locale } from "@core/locales";
import { RequestContext } from "./lib/nonce";
import { errorPageFailureHtml } from "@server/web/error-page-failure";
import { redactSecrets } from "@server/logger";
import { matchedRoutesOnly } from "./server-render-context";
import { withRememberedMessages } from "./server-i18n";

export const streamTimeout = 5_000;

/**
 * One i18next instance per locale for the whole process, handed to React as a view that inherits from it.
 * useTranslation copies every own property of the instance it gets into a new wrapper, and a server render calls it
 * once per component: the instance has about forty (i18next binds its methods to it), the view none, while its
 * methods are still the instance's, bound to the instance.
 */
const i18nByLocale = new Map<Locale, I18n>();
function i18nFor(locale: Locale): I18n {
  let view = i18nByLocale.get(locale);
  if (!view) i18nByLocale.set(locale, (view = withRememberedMessages(Object.create(createI18n(locale)) as I18n)));
  return view;
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const rootData = routerContext.staticHandlerContext.loaderData.root as { locale?: string } | undefined;
  const locale = normalizeLocale(rootData?.locale) ?? loadContext.config.DEFAULT_LOCALE;
  const readyEvent = isbot(request.headers.get("user-agent")) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

  return new Promise<Response>((resolve) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <RequestContext.Provider value={{ nonce: loadContext.nonce, requestId: loadContext.requestId }}>
        <I18nextProvider i18n={i18nFor(locale)}>
          <ServerRouter context={matchedRoutesOnly(routerContext)} url={request.url} nonce={loadContext.nonce} />
        </I18nextProvider>
      </RequestContext.Provider>,
      {
        nonce: loadContext.nonce,
        [readyEvent]() {
          shellRendered = true;
          const body = new PassThrough();
          // The abort timer holds the whole render in memory: let it go as soon as the stream ends.
          body.once("close", () => clearTimeout(abortTimer));
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          loadContext.logger.error({ err: error }, "rendering the error page failed");
          resolve(
            new Response(errorPageFailureHtml(loadContext.requestId), {
              status: responseStatusCode >= 400 ? responseStatusCode : 500,
              headers: { "Content-Type": "text/html; charset=utf-8" },
            }),
          );
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) loadContext.logger.error({ err: error }, "render failed");
        },
      },
    );
    const abortTimer = setTimeout(abort, streamTimeout + 1000);
  });
}

/** Unexpected errors are logged with the request id; users see only a reference. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const logger = (context as AppLoadContext | undefined)?.logger;
  // The logger redacts a link's token in the path and in React Router's messages that quote it (server/logger.ts).
  if (logger) logger.error({ err: error, path: new URL(request.url).pathname }, "unexpected error");
  else console.error(redactSecrets(error instanceof Error ? (error.stack ?? String(error)) : String(error)));
};
