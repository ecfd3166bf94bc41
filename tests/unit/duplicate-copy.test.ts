import { describe, expect, it } from "vitest";
import { inlineReferences, mapInlineReferences } from "@core/content/inline-references";
import { markedAsCopy } from "@core/content/title";

/*
 * What a duplicate changes in the original's data (server/content/duplicate.ts, the duplicate page's loader): the
 * inline references it copies, found wherever the schema has them, and its title marked as a copy.
 */

const A = "0b0c5a8e-3c1f-4d6e-9a57-1d2f3e4a5b6c";
const B = "1c1d6b9f-4d2a-4e7f-8b68-2e3a4f5b6c7d";
const C = "2d2e7caa-5e3b-4f8a-9c79-3f4b5a6c7d8e";

const schema = {
  type: "object",
  properties: {
    title: { type: "string" },
    room: { type: "string", _ref: "rooms", renderer: "inline" },
    artist: { type: "string", _ref: "artists" },
    lamps: { type: "array", items: { type: "string", _ref: "lamps", renderer: "inline" } },
    wing: { type: "object", properties: { hall: { type: "string", _ref: "halls", renderer: "inline" } } },
    label: { type: "string", renderer: "inline" },
  },
};

describe("inline references", () => {
  it("are found at the top, in lists and in objects; plain references and texts are not", () => {
    const data = { title: "Spring", room: A, artist: B, lamps: [B, "not an id"], wing: { hall: C.toUpperCase() }, label: A };
    expect(inlineReferences(schema, data)).toEqual([
      { name: "room", collection: "rooms", contentId: A },
      { name: "lamps[0]", collection: "lamps", contentId: B },
      { name: "wing.hall", collection: "halls", contentId: C },
    ]);
  });

  it("are replaced where the replacement answers, the rest of the value kept (the same object when nothing changes)", () => {
    const data = { title: "Spring", room: A, artist: A, lamps: [A, B], wing: { hall: C } };
    const copies = new Map([[A, "copy-a"]]);
    expect(mapInlineReferences(schema, data, (reference) => copies.get(reference.contentId))).toEqual({
      ...data,
      room: "copy-a",
      lamps: ["copy-a", B],
    });
    expect(mapInlineReferences(schema, data, () => undefined)).toBe(data);
  });
});

describe("a duplicate's title", () => {
  it("is marked in the editor's language", () => {
    expect(markedAsCopy({ title: "Spring", n: 1 }, schema, "en")).toEqual({ title: "Spring (copy)", n: 1 });
    expect(markedAsCopy({ title: "Lente" }, schema, "nl")).toEqual({ title: "Lente (kopie)" });
  });

  it("marks each locale of a translated title in its own word, the editor's for another language", () => {
    expect(markedAsCopy({ title: { nl: "Wad", en_US: "Mudflats", de: "Watt", fr: "" } }, schema, "nl")).toEqual({
      title: { nl: "Wad (kopie)", en_US: "Mudflats (copy)", de: "Watt (kopie)", fr: "" },
    });
  });

  it("follows title-key, and leaves an empty or missing title alone", () => {
    const keyed = { "title-key": "name", properties: { code: { type: "string" }, name: { type: "string" } } };
    expect(markedAsCopy({ code: "X1", name: "Hall" }, keyed, "en")).toEqual({ code: "X1", name: "Hall (copy)" });
    expect(markedAsCopy({ title: " " }, schema, "en")).toEqual({ title: " " });
    expect(markedAsCopy({ room: A }, schema, "en")).toEqual({ room: A });
    expect(markedAsCopy({ count: 3 }, { properties: { count: { type: "integer" } } }, "en")).toEqual({ count: 3 });
  });
});
