import type { AppLoadContext } from "react-router";
import { RemixI18Next } from "remix-i18next/server";
import { describe, expect, it } from "vitest";
import { getRequestState } from "@server/web/request-state";

/* The locale of a request without a session's or user's choice: the browser's Accept-Language, parsed once per value. */

function contextWith(fallbackLanguage: "en" | "nl") {
  const detector = new RemixI18Next({ detection: { supportedLanguages: ["en", "nl"], fallbackLanguage, order: ["header"] } });
  const asked: Array<string | null> = [];
  const getLocale = detector.getLocale.bind(detector);
  detector.getLocale = (request: Request) => {
    asked.push(request.headers.get("Accept-Language"));
    return getLocale(request);
  };
  const session = { get: () => undefined, unset: () => undefined };
  const context = () =>
    ({
      config: { DEFAULT_LOCALE: fallbackLanguage },
      sessionStorage: { getSession: () => Promise.resolve(session) },
      languageDetector: detector,
    }) as unknown as AppLoadContext;
  return { context, asked };
}

const locale = async (context: AppLoadContext, acceptLanguage?: string) =>
  (
    await getRequestState(
      new Request("http://cms.example.test/", { headers: acceptLanguage ? { "Accept-Language": acceptLanguage } : {} }),
      context,
    )
  ).locale;

describe("the browser's locale", () => {
  it("asks the detector once per Accept-Language value", async () => {
    const { context, asked } = contextWith("en");
    expect(await locale(context(), "nl-NL,nl;q=0.9,en;q=0.8")).toBe("nl");
    expect(await locale(context(), "nl-NL,nl;q=0.9,en;q=0.8")).toBe("nl");
    expect(await locale(context(), "en-GB")).toBe("en");
    expect(await locale(context(), "en-GB")).toBe("en");
    expect(asked).toEqual(["nl-NL,nl;q=0.9,en;q=0.8", "en-GB"]);
  });

  it("remembers per server: another default locale answers its own fallback", async () => {
    const english = contextWith("en");
    const dutch = contextWith("nl");
    expect(await locale(english.context(), "fr")).toBe("en");
    expect(await locale(dutch.context(), "fr")).toBe("nl");
    expect(await locale(english.context())).toBe("en");
    expect(await locale(dutch.context())).toBe("nl");
    expect(dutch.asked).toEqual(["fr", null]);
  });
});
