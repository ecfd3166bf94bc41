import type { i18n as I18n } from "i18next";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider, useTranslation } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createI18n } from "~/lib/i18n";
import { withRememberedMessages } from "~/server-i18n";

/* The server render's translations: a message without parameters is put into words once per process. */

function countingView() {
  // i18next binds its methods to the instance: its fixed t calls the instance's own t.
  const instance = createI18n("nl");
  const translate = instance.t;
  const asked: unknown[] = [];
  instance.t = ((...args: Parameters<I18n["t"]>) => {
    asked.push(args[0]);
    return translate(...args);
  }) as I18n["t"];
  return { view: withRememberedMessages(Object.create(instance) as I18n), asked };
}

describe("withRememberedMessages", () => {
  it("translates a message without parameters once, and answers what i18next answers", () => {
    const { view, asked } = countingView();
    const t = view.getFixedT("nl", "common");
    expect(t("home.title")).toBe("Inhoud");
    expect(view.getFixedT("nl", "common")("home.title")).toBe("Inhoud");
    expect(t("home.intro")).toBe(createI18n("nl").t("home.intro"));
    expect(asked).toEqual(["home.title", "home.intro"]);
  });

  it("translates a message with parameters every time, and keeps each language apart", () => {
    const { view, asked } = countingView();
    const t = view.getFixedT("nl", "common");
    expect(t("bucket.documents", { count: 2 })).toBe(createI18n("nl").t("bucket.documents", { count: 2 }));
    expect(t("bucket.documents", { count: 1 })).toBe(createI18n("nl").t("bucket.documents", { count: 1 }));
    expect(asked).toEqual(["bucket.documents", "bucket.documents"]);
    expect(view.getFixedT("en", "common")("home.intro")).toBe(createI18n("en").t("home.intro"));
    expect(t("home.intro")).toBe(createI18n("nl").t("home.intro"));
  });
});

/*
 * How react-i18next calls it: useTranslation asks the instance it is given for getFixedT(language, namespace,
 * keyPrefix) and calls that t. A render through react-i18next's real provider and hook: an upgrade that calls t
 * another way (or no longer through getFixedT) fails here.
 */
describe("withRememberedMessages under react-i18next's useTranslation", () => {
  /** A component's messages: plain, interpolated, plural (one and other), and under a key prefix. */
  function Messages() {
    const { t } = useTranslation();
    const { t: underLogin } = useTranslation("common", { keyPrefix: "login" });
    const texts = [
      t("home.title"),
      t("errors.unexpected", { id: "r-1" }),
      t("references.searchResults", { count: 1 }),
      t("references.searchResults", { count: 3 }),
      underLogin("title"),
    ];
    return createElement("p", null, texts.join(" | "));
  }
  const render = (i18n: I18n) => renderToString(createElement(I18nextProvider, { i18n }, createElement(Messages)));

  it("puts every message into the words i18next's own t does", () => {
    for (const locale of ["nl", "en"] as const) {
      expect(render(withRememberedMessages(Object.create(createI18n(locale)) as I18n))).toBe(render(createI18n(locale)));
    }
    expect(render(withRememberedMessages(Object.create(createI18n("en")) as I18n))).toContain(
      "Content | Unexpected error. Reference: r-1 | 1 result | 3 results | Sign in",
    );
  });

  it("is what the hook's t goes through: a message without parameters is put into words once over two renders", () => {
    const { view, asked } = countingView();
    render(view);
    render(view);
    // Each render asks for the three messages with parameters again; the two without, only the first time.
    const withParameters = ["errors.unexpected", "references.searchResults", "references.searchResults"];
    expect(asked).toEqual(["home.title", ...withParameters, "login.title", ...withParameters]);
  });
});
