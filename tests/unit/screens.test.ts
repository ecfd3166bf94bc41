import { describe, expect, it } from "vitest";
import {
  documentPath,
  newDocumentPath,
  overviewPath,
  registerScreens,
  savedDocumentPath,
  screenPathFor,
  singletonPath,
} from "@core/content/screens";
import { casesField } from "@core/content/renderers";
import { screenRequirements } from "@core/content/screen-table";
import { SCREEN_TABLE } from "@screens/table";

registerScreens(SCREEN_TABLE);

const bucket = (screen: "generic" | "sessies" | "dle-sessies" | "dle-content" | "trend", singleton = false) => ({
  slug: "x y",
  singleton,
  screen,
});

describe("a bucket's pages on its screen", () => {
  it("puts the overview on the screens that have one, the generic overview otherwise, and a singleton's on its document", () => {
    expect(overviewPath(bucket("generic"))).toBe("/b/x%20y");
    expect(overviewPath(bucket("sessies"))).toBe("/sessies/x%20y");
    expect(overviewPath(bucket("dle-sessies"))).toBe("/dle-sessies/x%20y");
    expect(overviewPath(bucket("trend"))).toBe("/b/x%20y");
    expect(overviewPath(bucket("dle-content"))).toBe("/b/x%20y");
    expect(overviewPath(bucket("dle-content", true))).toBe("/dle-content/x%20y/edit");
    expect(overviewPath(bucket("generic", true))).toBe("/b/x%20y/edit");
  });

  it("names the new, document and version pages of each screen", () => {
    expect(newDocumentPath(bucket("trend"))).toBe("/trend/x%20y/new");
    expect(documentPath(bucket("sessies"), "c")).toBe("/sessies/x%20y/c/latest");
    expect(documentPath(bucket("dle-content"), "c", "v")).toBe("/dle-content/x%20y/c/v");
    expect(documentPath(bucket("generic"), "c", "v")).toBe("/b/x%20y/c/v");
    expect(singletonPath(bucket("generic", true))).toBe("/b/x%20y/edit");
    // Screens without a singleton page keep the generic one.
    expect(singletonPath(bucket("trend", true))).toBe("/b/x%20y/edit");
    expect(savedDocumentPath(bucket("dle-sessies"), "c")).toBe("/dle-sessies/x%20y/c/latest");
  });

  it("sends a generic page of a specialised bucket to its screen where the screen has that page", () => {
    expect(screenPathFor(bucket("sessies"), "new", {})).toBe("/sessies/x%20y/new");
    expect(screenPathFor(bucket("sessies"), "version", { contentId: "c", versionId: "v" })).toBe("/sessies/x%20y/c/v");
    expect(screenPathFor(bucket("sessies"), "duplicate", { contentId: "c" })).toBeNull();
    expect(screenPathFor(bucket("sessies"), "singleton", {})).toBeNull();
    expect(screenPathFor(bucket("generic"), "new", {})).toBeNull();
  });
});

describe("what a screen asks of a bucket definition", () => {
  const withCases = {
    type: "object",
    properties: { cases: { type: "array", renderer: "video-cases", items: { type: "string", _ref: "cases" } } },
  };
  const plain = { type: "object", properties: { title: { type: "string" } } };

  it("finds the session's cases field", () => {
    expect(casesField(withCases)).toBe("cases");
    expect(casesField(plain)).toBeNull();
  });

  it("needs a video-cases field for sessions and several documents for sessions and trends", () => {
    expect(screenRequirements(SCREEN_TABLE, { screen: "sessies", singleton: false, jsonSchema: withCases })).toEqual([]);
    expect(screenRequirements(SCREEN_TABLE, { screen: "dle-sessies", singleton: false, jsonSchema: plain })).toEqual([
      { key: "screens.errors.casesField" },
    ]);
    expect(screenRequirements(SCREEN_TABLE, { screen: "trend", singleton: true, jsonSchema: plain })).toEqual([
      { key: "screens.errors.notSingleton" },
    ]);
    expect(screenRequirements(SCREEN_TABLE, { screen: "dle-content", singleton: true, jsonSchema: plain })).toEqual([]);
    expect(screenRequirements(SCREEN_TABLE, { screen: "generic", singleton: true, jsonSchema: plain })).toEqual([]);
  });
});
