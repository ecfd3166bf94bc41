import { describe, expect, it } from "vitest";
import { caseCardOf, formatDuration, matchesCaseSearch } from "@core/content/cases";
import { applyCasesPickerIntent } from "@core/form/cases-picker";
import { fieldKind } from "@core/form/field-kind";
import { checkSchemaDialect } from "@core/schema/dialect";
import { translateMessage } from "@core/messages";

/* The video-cases field and the trend select in core: their kinds, the dialect's check, the search, the card, and
 * the picker's no-JavaScript buttons turned into Conform intents. */

const ID_A = "0b7c5e64-5a1c-4b7e-9a51-7f0a2d3c4e01";
const ID_B = "0b7c5e64-5a1c-4b7e-9a51-7f0a2d3c4e02";
const schema = {
  type: "object",
  properties: {
    title: { type: "string" },
    cases: { type: "array", renderer: "video-cases", items: { type: "string", _ref: "cases" } },
  },
};

describe("video cases in core", () => {
  it("names the kinds and refuses the renderers on the wrong properties", () => {
    expect(fieldKind(schema.properties.cases)).toBe("videoCases");
    expect(fieldKind({ type: "string", _ref: "trends", renderer: "trend-select" })).toBe("trendSelect");
    const check = (property: Record<string, unknown>) =>
      checkSchemaDialect(
        { type: "object", properties: { p: property } },
        { locales: ["en"], collections: ["cases", "trends"], compile: false },
      ).map((message) => translateMessage("en", message));
    expect(check(schema.properties.cases)).toEqual([]);
    expect(check({ type: "string", _ref: "trends", renderer: "trend-select" })).toEqual([]);
    expect(check({ type: "string", renderer: "video-cases", _ref: "cases" })).toEqual([
      "properties.p: the video-cases renderer needs a list (type array) whose items have a _ref to a collection",
    ]);
    expect(check({ type: "array", renderer: "video-cases", items: { type: "string", _ref: "b-video" } })).toHaveLength(1);
    expect(check({ type: "string", renderer: "trend-select" })).toEqual([
      "properties.p: the trend-select renderer needs a _ref to a collection",
    ]);
  });

  it("writes durations as m:ss, h:mm:ss from an hour", () => {
    expect(formatDuration(0)).toBe("0:00");
    expect(formatDuration(2.04)).toBe("0:02");
    expect(formatDuration(65.6)).toBe("1:06");
    expect(formatDuration(3723)).toBe("1:02:03");
  });

  it("searches every word in title and subtitle, ignoring case and accents", () => {
    const card = { title: "Café at the harbour", subtitle: "Harlingen quay" };
    expect(matchesCaseSearch(card, "")).toBe(true);
    expect(matchesCaseSearch(card, "cafe HARLINGEN")).toBe(true);
    expect(matchesCaseSearch(card, "cafe zeppelin")).toBe(false);
  });

  it("reads a populated case as a clip card: the still of its video, or none", () => {
    expect(
      caseCardOf({
        contentId: ID_A,
        _id: ID_B,
        title: "A",
        subtitle: "B",
        thumbnail: { contentId: ID_B, kind: "video", still: "/api/v1/still/x/1", status: "completed" },
      }),
    ).toEqual({
      contentId: ID_A,
      _id: ID_B,
      title: "A",
      subtitle: "B",
      still: "/api/v1/still/x/1",
      thumbnailId: ID_B,
      processing: false,
      video: null,
    });
    // The video as the session preview plays it: its URL, whether it is ready, its duration.
    expect(
      caseCardOf({
        contentId: ID_A,
        _id: ID_B,
        title: "A",
        thumbnail: { contentId: ID_B, kind: "video", url: "/api/v1/media/video/x", status: "processing", duration: 2.04 },
      })?.video,
    ).toEqual({ url: "/api/v1/media/video/x", ready: false, duration: 2.04 });
    expect(
      caseCardOf({
        contentId: ID_A,
        _id: ID_B,
        title: "A",
        thumbnail: { contentId: ID_B, kind: "image", url: "/x.png", status: "completed" },
      })?.video,
    ).toBeNull();
    expect(caseCardOf({ contentId: ID_A, _id: ID_B, title: "A", thumbnail: { contentId: ID_B, missing: true } })?.still).toBeNull();
    expect(caseCardOf({ title: "no ids" })).toBeNull();
  });

  it("turns the picker's buttons into Conform update intents, and drops everything else", () => {
    const post = (entries: Array<[string, string]>) => {
      const formData = new FormData();
      for (const [name, value] of entries) formData.append(name, value);
      return formData;
    };
    const open = post([
      ["title", "T"],
      ["cases[0]", ID_A],
      ["__cases_open", "cases"],
      ["__cases_search", "harb"],
    ]);
    expect(applyCasesPickerIntent(open, schema)).toEqual({ name: "cases", search: "harb" });
    expect(JSON.parse(open.get("__intent__") as string)).toEqual({ type: "update", payload: { name: "cases" } });
    expect(open.has("__cases_search")).toBe(false);

    const add = post([
      ["cases[1]", ID_B],
      ["cases[0]", ID_A],
      ["__cases_add", "cases"],
      ["__cases_pick", ID_B],
      ["__cases_pick", "nope"],
      ["__cases_pick", ID_A.toUpperCase()],
    ]);
    expect(applyCasesPickerIntent(add, schema)).toBeNull();
    expect(JSON.parse(add.get("__intent__") as string)).toEqual({ type: "update", payload: { name: "cases", value: [ID_A, ID_B] } });

    const wrong = post([
      ["__cases_open", "title"],
      ["__cases_pick", ID_A],
    ]);
    expect(applyCasesPickerIntent(wrong, schema)).toBeNull();
    expect(wrong.has("__intent__")).toBe(false);
    expect(wrong.has("__cases_pick")).toBe(false);
  });
});
