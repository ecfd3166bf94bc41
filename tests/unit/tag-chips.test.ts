import { describe, expect, it } from "vitest";
import { initialValue } from "@core/form/kinds";
import { applyTagIntent, TAG_ADD_FIELD, tagDraftName, tagsFromText } from "@core/form/tags";
import type { JsonSchema } from "@core/schema/normalize";

/* The tag list's chips without JavaScript (core/form/tags.ts): the typed tag and '+ New Tag' become an entry. */

const SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    tags: { type: "array", renderer: "tags", items: { type: "string" } },
    notes: { type: "array", items: { type: "string" } },
    rooms: {
      type: "array",
      items: { type: "object", properties: { labels: { type: "array", renderer: "tags", items: { type: "string" } } } },
    },
  },
};

const form = (entries: Array<[string, string]>) => {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
};
const entriesOf = (data: FormData) => [...data.entries()].map(([name, value]) => [name, typeof value === "string" ? value : value.name]);

describe("tag chips without JavaScript", () => {
  it("splits a typed text into tags at commas, trimmed, empty ones dropped", () => {
    expect(tagsFromText(" sea, light ,, ")).toEqual(["sea", "light"]);
    expect(tagsFromText("   ")).toEqual([]);
  });

  it("a tag list starts with no chips (no empty spare row), whatever its minItems", () => {
    expect(initialValue({ type: "array", renderer: "tags", items: { type: "string" }, minItems: 2 })).toEqual([]);
  });

  it("'+ New Tag' adds the typed tag after the others and re-renders instead of saving (an update intent)", () => {
    const data = form([
      ["tags[0]", "sea"],
      ["tags[1]", "light"],
      [tagDraftName("tags"), "wind"],
      [TAG_ADD_FIELD, "tags"],
    ]);
    applyTagIntent(data, SCHEMA);
    expect(entriesOf(data)).toEqual([
      ["tags[0]", "sea"],
      ["tags[1]", "light"],
      ["tags[2]", "wind"],
      ["__intent__", JSON.stringify({ type: "update", payload: { name: "tags" } })],
    ]);
  });

  it("'+ New Tag' with nothing typed re-renders without a new entry", () => {
    const data = form([
      [tagDraftName("tags"), "  "],
      [TAG_ADD_FIELD, "tags"],
    ]);
    applyTagIntent(data, SCHEMA);
    expect(entriesOf(data)).toEqual([["__intent__", JSON.stringify({ type: "update", payload: { name: "tags" } })]]);
  });

  it("a tag typed and then saved is kept: a new entry, no intent (the post saves)", () => {
    const data = form([
      ["tags[0]", "sea"],
      [tagDraftName("tags"), "wind, rain"],
      [tagDraftName("rooms[0].labels"), "north"],
    ]);
    applyTagIntent(data, SCHEMA);
    expect(entriesOf(data)).toEqual([
      ["tags[0]", "sea"],
      ["tags[1]", "wind"],
      ["tags[2]", "rain"],
      ["rooms[0].labels[0]", "north"],
    ]);
  });

  it("keeps another intent (a chip's remove) and adds the typed tag at the end, so the indexes it names still hold", () => {
    const remove = JSON.stringify({ type: "remove", payload: { name: "tags", index: 0 } });
    const data = form([
      ["tags[0]", "sea"],
      [tagDraftName("tags"), "wind"],
      ["__intent__", remove],
    ]);
    applyTagIntent(data, SCHEMA);
    expect(entriesOf(data)).toEqual([
      ["tags[0]", "sea"],
      ["__intent__", remove],
      ["tags[1]", "wind"],
    ]);
  });

  it("drops drafts and presses that name no tag list (a plain list, an unknown field)", () => {
    const data = form([
      [tagDraftName("notes"), "x"],
      [tagDraftName("nowhere"), "y"],
      [TAG_ADD_FIELD, "notes"],
    ]);
    applyTagIntent(data, SCHEMA);
    expect(entriesOf(data)).toEqual([]);
  });
});
