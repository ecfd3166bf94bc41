import { describe, expect, it } from "vitest";
import { SCREEN_TABLE } from "@screens/table";
import { documentRuleFindings } from "@core/content/document-rules";

/*
 * The screens' rules (their entries of specialised-screens/table.ts) and the field kinds' (core/content/document-rules.ts): a
 * save runs them all, the form's resolver those it can check in the browser.
 */

const TREND_ID = "8f0c7a52-6a5e-4f0e-9a43-0c7d2b1e9a10";
const trendSchema = {
  type: "object",
  properties: { related: { type: "array", renderer: "trend-select", items: { type: "string", _ref: "trends" } } },
};

describe("the document rules", () => {
  it("finds a session that ends before it starts, on dle-sessies, in the browser and on save", () => {
    const input = {
      screen: "dle-sessies" as const,
      schema: { type: "object" },
      data: { availableFrom: "2027-02-01", availableUntil: "2027-01-01" },
    };
    const expected = [
      {
        field: "availableUntil",
        message: { key: "content.untilBeforeFrom", params: { from: "2027-02-01" } },
        status: 400,
      },
    ];
    expect(documentRuleFindings(input, "all", SCREEN_TABLE)).toEqual(expected);
    expect(documentRuleFindings(input, "inBrowser", SCREEN_TABLE)).toEqual(expected);
    expect(documentRuleFindings({ ...input, screen: "sessies" }, "all", SCREEN_TABLE)).toEqual([]);
  });

  it("finds a trend related to itself on save only, and only for a stored trend of that collection", () => {
    const input = {
      screen: "trend" as const,
      schema: trendSchema,
      collection: "trends",
      contentId: TREND_ID,
      data: { related: [TREND_ID] },
    };
    expect(documentRuleFindings(input, "all", SCREEN_TABLE)).toEqual([
      { field: "related", message: { key: "content.trendRelatedToItself" }, status: 422 },
    ]);
    expect(documentRuleFindings(input, "inBrowser", SCREEN_TABLE)).toEqual([]);
    expect(documentRuleFindings({ ...input, contentId: undefined }, "all", SCREEN_TABLE)).toEqual([]);
    expect(documentRuleFindings({ ...input, collection: "others" }, "all", SCREEN_TABLE)).toEqual([]);
  });
});
