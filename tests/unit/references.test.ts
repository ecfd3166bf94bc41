import { describe, expect, it } from "vitest";
import {
  collectionReferences,
  documentThumbnail,
  REFERENCE_QUERY_PREFIX,
  REFERENCE_SEARCH_FIELD,
  searchLimit,
} from "@core/content/references";
import { takeReferenceSearch } from "@core/form/reference-search";

const a = "0b6f4a3c-1d2e-4f50-8a6b-7c8d9e0f1a2b";
const b = "7a1f3e56-9a43-4c1e-8d0b-2f1b4c5d6e7f";
const schema = {
  type: "object",
  properties: {
    title: { type: "string" },
    artist: { type: "string", _ref: "artists" },
    image: { type: "string", _ref: "b-image" },
    rooms: { type: "array", items: { type: "object", properties: { curator: { type: "string", _ref: "people" } } } },
    lineup: { type: "array", items: { type: "string", _ref: "artists" } },
  },
};

describe("collectionReferences", () => {
  it("finds the contentIds in reference fields along the schema, never in texts or media fields", () => {
    expect(
      collectionReferences(schema, {
        title: a,
        artist: a.toUpperCase(),
        image: b,
        rooms: [{ curator: b }, { curator: "not-an-id" }],
        lineup: [b, 3, a],
      }),
    ).toEqual([
      { collection: "artists", contentId: a, name: "artist" },
      { collection: "people", contentId: b, name: "rooms[0].curator" },
      { collection: "artists", contentId: b, name: "lineup[0]" },
      { collection: "artists", contentId: a, name: "lineup[2]" },
    ]);
    expect(collectionReferences(schema, null)).toEqual([]);
    expect(collectionReferences(schema, { artist: { nested: a } })).toEqual([]);
  });
});

describe("documentThumbnail and searchLimit", () => {
  it("answers the first image field's serving URL, or null", () => {
    expect(documentThumbnail({ image: b }, schema)).toBe(`/api/v1/media/image/${b}`);
    expect(documentThumbnail({ image: "../etc/passwd" }, schema)).toBeNull();
    expect(documentThumbnail({}, schema)).toBeNull();
  });
  it("reads a limit as 1 to 50, 20 when absent or unreadable", () => {
    expect([null, "", "x", "-1", "1.5", "5", "0", "50", "51", "999999999", "9999999999"].map(searchLimit)).toEqual([
      20, 20, 20, 20, 20, 5, 1, 50, 50, 50, 20,
    ]);
  });
});

describe("takeReferenceSearch (the search without JavaScript)", () => {
  const form = (entries: Array<[string, string]>) => {
    const data = new FormData();
    for (const [name, value] of entries) data.append(name, value);
    return data;
  };
  it("takes every search text out of a post, and a pressed search becomes an update intent of its field", () => {
    const data = form([
      ["title", "T"],
      ["artist", a],
      [`${REFERENCE_QUERY_PREFIX}artist`, "mes"],
      [`${REFERENCE_QUERY_PREFIX}lineup[0]`, "x"],
      [REFERENCE_SEARCH_FIELD, "artist"],
    ]);
    expect(takeReferenceSearch(data, schema)).toEqual({ name: "artist", collection: "artists", query: "mes" });
    expect([...data.keys()]).toEqual(["title", "artist", "__intent__"]);
    expect(JSON.parse(data.get("__intent__") as string)).toEqual({ type: "update", payload: { name: "artist", value: a } });
  });
  it("ignores a search of a field that is no reference, and a save only loses the search texts", () => {
    const odd = form([
      ["title", "T"],
      [REFERENCE_SEARCH_FIELD, "title"],
    ]);
    expect(takeReferenceSearch(odd, schema)).toBeNull();
    expect([...odd.keys()]).toEqual(["title"]);
    const save = form([
      ["lineup[0]", a],
      [`${REFERENCE_QUERY_PREFIX}lineup[0]`, "x"],
    ]);
    expect(takeReferenceSearch(save, schema)).toBeNull();
    expect([...save.keys()]).toEqual(["lineup[0]"]);
    const list = form([
      [`${REFERENCE_QUERY_PREFIX}lineup[1]`, "x".repeat(500)],
      [REFERENCE_SEARCH_FIELD, "lineup[1]"],
    ]);
    expect(takeReferenceSearch(list, schema)).toMatchObject({ name: "lineup[1]", collection: "artists", query: "x".repeat(200) });
  });
});
