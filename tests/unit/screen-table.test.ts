import { describe, expect, it } from "vitest";
import { documentRuleFindings } from "@core/content/document-rules";
import type { ScreenTable } from "@core/content/screen-table";
import { screenRequirements } from "@core/content/screen-table";
import { subFormResolver } from "@core/form/subforms";
import { SCREEN_BROWSER_RULES } from "@screens/browser-rules";
import { SCREEN_TABLE } from "@screens/table";

/*
 * The engine runs what a screen registers in the table it is handed (core/content/screen-table.ts), knowing nothing
 * of the screen: a table made here, of a screen no module of the product has, is enough.
 */

const TEST_SCREEN_TABLE: ScreenTable = [
  {
    name: "trend",
    rules: [
      {
        owner: "a test screen: a title is never 'forbidden'",
        inBrowser: true,
        check: ({ data }) =>
          (data as { title?: unknown }).title === "forbidden"
            ? { field: "title", message: { key: "errors.unexpected", params: { id: "test" } }, status: 400 }
            : null,
      },
    ],
    requirements: ({ singleton }) => (singleton ? [{ key: "screens.errors.notSingleton" }] : []),
  },
];
const schema = { type: "object", properties: { title: { type: "string" } } };

describe("the screens' table the engine is handed", () => {
  it("runs the rules of the document's screen from the table, on save and in the form's resolver", () => {
    const input = { screen: "trend" as const, schema, data: { title: "forbidden" } };
    const finding = { field: "title", message: { key: "errors.unexpected", params: { id: "test" } }, status: 400 };
    expect(documentRuleFindings(input, "all", TEST_SCREEN_TABLE)).toEqual([finding]);
    expect(documentRuleFindings({ ...input, screen: "sessies" }, "all", TEST_SCREEN_TABLE)).toEqual([]);
    expect(documentRuleFindings(input, "all", [])).toEqual([]);
    const resolve = (screens: ScreenTable) =>
      subFormResolver({ schema, validate: null, messageLocale: "en", subForms: {}, screen: "trend", screens })({ title: "forbidden" });
    expect(resolve(TEST_SCREEN_TABLE).error?.title).toHaveLength(1);
    expect(resolve([]).error).toBeUndefined();
  });

  it("asks a bucket definition what its screen's entry asks", () => {
    const definition = { screen: "trend" as const, singleton: true, jsonSchema: schema };
    expect(screenRequirements(TEST_SCREEN_TABLE, definition)).toEqual([{ key: "screens.errors.notSingleton" }]);
    expect(screenRequirements(TEST_SCREEN_TABLE, { ...definition, screen: "generic" })).toEqual([]);
    expect(screenRequirements([], definition)).toEqual([]);
  });

  it("hands the browser every rule of the table it can check as the editor types, and only those", () => {
    const inBrowser = (rules: typeof SCREEN_BROWSER_RULES) =>
      rules.flatMap(({ name, rules: own }) => own.filter((rule) => rule.inBrowser).map((rule) => `${name}: ${rule.owner}`));
    expect(inBrowser(SCREEN_BROWSER_RULES)).toEqual(inBrowser(SCREEN_TABLE));
    expect(SCREEN_BROWSER_RULES.flatMap(({ rules }) => rules).every((rule) => rule.inBrowser)).toBe(true);
  });
});
