import { afterEach, describe, expect, it } from "vitest";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { documentRuleFindings } from "@core/content/document-rules";
import type { ScreenTable } from "@core/content/screen-table";
import { screenRequirements } from "@core/content/screen-table";
import { subFormResolver } from "@core/form/subforms";
import {
  documentPath,
  hasOwnOverview,
  isScreenName,
  newDocumentPath,
  overviewPath,
  registerScreens,
  screenNames,
  singletonPath,
} from "@core/content/screens";
import routes from "~/routes";
import { SCREEN_TABLE } from "@screens/table";

/*
 * The engine runs what a screen registers in the table it is handed (core/content/screen-table.ts), knowing nothing
 * of the screen: a table made here, of a screen no module of the product has, is enough.
 */

const TEST_SCREEN_TABLE: ScreenTable = [
  {
    name: "trend",
    pages: { modes: ["new", "latest", "version"], ownOverview: false },
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
});

describe("a screen's pages, from the table alone", () => {
  afterEach(() => registerScreens(SCREEN_TABLE));
  const gallery = { name: "gallery", pages: { modes: ["new", "latest"] as const, ownOverview: true } };

  it("makes every link to a bucket from the pages its screen's entry declares", () => {
    registerScreens([...SCREEN_TABLE, gallery]);
    const bucket = { slug: "rooms", singleton: false, screen: "gallery" };
    expect(screenNames()).toEqual(["generic", ...SCREEN_TABLE.map(({ name }) => name), "gallery"]);
    expect(isScreenName("gallery")).toBe(true);
    expect(overviewPath(bucket)).toBe("/gallery/rooms");
    expect(hasOwnOverview(bucket)).toBe(true);
    expect(newDocumentPath(bucket)).toBe("/gallery/rooms/new");
    expect(documentPath(bucket, "c1")).toBe("/gallery/rooms/c1/latest");
    // No page of its own for a version or a singleton: the generic editor's.
    expect(documentPath(bucket, "c1", "v2")).toBe("/b/rooms/c1/v2");
    expect(singletonPath({ ...bucket, singleton: true })).toBe("/b/rooms/edit");
  });

  it("shows a bucket whose screen left the table in the generic editor, and refuses that screen for a new definition", () => {
    registerScreens(SCREEN_TABLE);
    const bucket = { slug: "rooms", singleton: false, screen: "gallery" };
    expect(isScreenName("gallery")).toBe(false);
    expect(overviewPath(bucket)).toBe("/b/rooms");
    expect(documentPath(bucket, "c1")).toBe("/b/rooms/c1/latest");
  });

  it("serves each screen of the table from its folder's routes, and has no folder of routes the table lacks", () => {
    const paths = (entries: RouteConfigEntry[]): string[] => entries.flatMap((entry) => [entry.path ?? "", ...paths(entry.children ?? [])]);
    const prefixes = new Set(paths(routes).map((path) => path.split("/")[0]));
    for (const { name, pages } of SCREEN_TABLE) {
      const own = paths(routes).filter((path) => path.startsWith(`${name}/`));
      expect(own, name).toContain(`${name}/:bucket/new`);
      if (pages.ownOverview) expect(own, name).toContain(`${name}/:bucket`);
    }
    const screenFolders = routes.flatMap((entry) => (entry.file.startsWith("../specialised-screens/") ? [entry.file.split("/")[2]] : []));
    expect(new Set(screenFolders)).toEqual(new Set(SCREEN_TABLE.map(({ name }) => name)));
    expect(prefixes.has("sessies")).toBe(true);
  });
});
