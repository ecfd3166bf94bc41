import { describe, expect, it } from "vitest";
import en from "../../locales/en/common.json";
import nl from "../../locales/nl/common.json";
import { createI18n } from "../../app/lib/i18n";
import { normalizeLocale } from "../../core/locales";

function keys(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keys(child, prefix ? `${prefix}.${key}` : key));
}

describe("message sets", () => {
  it("have the same keys in English and Dutch, none empty", () => {
    expect(keys(nl).sort()).toEqual(keys(en).sort());
    for (const key of keys(en)) expect(key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], en)).not.toBe("");
  });

  it("carry the spec's exact wording", () => {
    const t = createI18n("en").t;
    expect(t("errors.notFound")).toBe("This page could not be found");
    expect(t("nav.signout")).toBe("Signout");
    expect(t("nav.backToOverview")).toBe("Back to overview");
    expect(t("login.errors.unknownUser")).toBe("unknown user");
    expect(t("login.errors.incorrectPassword")).toBe("incorrect password");
    expect(t("login.errors.unknownError")).toBe("unknown error");
    expect(t("errors.errorPageFailed")).toBe("An error occurred while showing the error page");
    expect(t("errors.goHome")).toBe("Go back to home");
    expect(createI18n("nl").t("ieWarning.title")).toBe("Let op!");
  });

  it.each([
    ["en", "en"], ["en_US", "en"], ["nl-NL", "nl"], ["NL", "nl"], ["de", null], ["", null],
  ])("normalizes %s to %s", (input, expected) => {
    expect(normalizeLocale(input)).toBe(expected);
  });
});
