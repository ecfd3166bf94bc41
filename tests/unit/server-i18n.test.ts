import type { i18n as I18n } from "i18next";
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
