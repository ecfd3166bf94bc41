import { describe, expect, it } from "vitest";
import { normalizeSchema } from "@core/schema/normalize";
import { fieldLabel, mergeDocuments, sameJson } from "./merge";

const LOCALES = ["nl", "en"];
const { schema } = normalizeSchema(
  {
    type: "object",
    properties: {
      title: { type: "string", title: "Title", translate: true },
      year: { type: "integer", title: "Year" },
      images: { type: "array", title: "Images", items: { type: "string", _ref: "b-image" } },
      poster: { type: "string", title: "Poster", _ref: "b-image" },
      maker: { type: "string", title: "Maker", _ref: "makers" },
      tags: { type: "array", title: "Tags", renderer: "tags", items: { type: "string" } },
      labels: { type: "array", title: "Labels", renderer: "texts" },
      section: {
        type: "object",
        title: "Section",
        properties: { caption: { type: "string", title: "Caption", translate: true }, credit: { type: "string", title: "Credit" } },
      },
      rooms: {
        type: "array",
        title: "Rooms",
        items: { type: "object", properties: { name: { type: "string" }, floor: { type: "integer" } } },
      },
      note: { type: "object", title: "Note", "x-disableable-bool": true },
    },
  },
  LOCALES,
);

const base = {
  title: { nl: "De zee", en: "The sea" },
  year: 1890,
  images: ["a", "b"],
  poster: "p1",
  maker: "m1",
  tags: ["sea"],
  labels: [
    { id: "intro", text: { nl: "Welkom", en: "Welcome" } },
    { id: "exit", text: { nl: "Uitgang", en: "Exit" } },
  ],
  section: { caption: { nl: "Onderschrift", en: "Caption" }, credit: "Museum" },
  rooms: [
    { name: "Hall", floor: 0 },
    { name: "Attic", floor: 2 },
  ],
  note: { value: "draft", disabled: false },
};
const copy = () => structuredClone(base) as typeof base & Record<string, unknown>;

describe("mergeDocuments", () => {
  it("takes both sides' changes to different fields, and says which came from the other side", () => {
    const theirs = { ...copy(), year: 1891, images: ["a", "b", "c"] };
    const mine = { ...copy(), poster: "p2", maker: "m2" };
    const outcome = mergeDocuments(schema, base, theirs, mine);
    expect(outcome.conflicts).toEqual([]);
    expect(outcome.merged).toEqual({ ...base, year: 1891, images: ["a", "b", "c"], poster: "p2", maker: "m2" });
    expect(outcome.fromTheirs).toEqual([["year"], ["images"]]);
  });

  it("merges a translated field per locale, and makes the same locale changed twice a conflict", () => {
    const theirs = { ...copy(), title: { nl: "De Noordzee", en: "The sea" } };
    const mine = { ...copy(), title: { nl: "De zee", en: "The North Sea" } };
    const merged = mergeDocuments(schema, base, theirs, mine);
    expect(merged.conflicts).toEqual([]);
    expect(merged.merged.title).toEqual({ nl: "De Noordzee", en: "The North Sea" });
    expect(merged.fromTheirs).toEqual([["title", "nl"]]);

    const clash = mergeDocuments(schema, base, theirs, { ...copy(), title: { nl: "Zee", en: "The sea" } });
    expect(clash.conflicts).toEqual([{ path: ["title", "nl"], mine: "Zee", theirs: "De Noordzee" }]);
    expect(clash.merged.title).toEqual({ nl: "Zee", en: "The sea" });
  });

  it("names the other side's changes as precisely as the schema merges: a translated field's locale, a section's property", () => {
    const theirs = copy();
    theirs.title = { nl: "De zee", en: "The North Sea" };
    theirs.section = { caption: { nl: "Onderschrift", en: "New caption" }, credit: "Museum" };
    const outcome = mergeDocuments(schema, base, theirs, { ...copy(), year: 1900 });
    expect(outcome.fromTheirs).toEqual([
      ["title", "en"],
      ["section", "caption", "en"],
    ]);
  });

  it("merges a section by property, translated fields inside it per locale", () => {
    const theirs = copy();
    theirs.section = { caption: { nl: "Nieuw onderschrift", en: "Caption" }, credit: "Museum" };
    const mine = copy();
    mine.section = { caption: { nl: "Onderschrift", en: "New caption" }, credit: "Rijksmuseum" };
    const outcome = mergeDocuments(schema, base, theirs, mine);
    expect(outcome.conflicts).toEqual([]);
    expect(outcome.merged.section).toEqual({ caption: { nl: "Nieuw onderschrift", en: "New caption" }, credit: "Rijksmuseum" });
    expect(outcome.fromTheirs).toEqual([["section", "caption", "nl"]]);
  });

  it("merges a list of texts by entry id: each side's edits, additions and removals of different entries", () => {
    const theirs = copy();
    theirs.labels = [
      { id: "intro", text: { nl: "Welkom!", en: "Welcome" } },
      { id: "exit", text: { nl: "Uitgang", en: "Exit" } },
      { id: "shop", text: { nl: "Winkel", en: "Shop" } },
    ];
    const mine = copy();
    mine.labels = [{ id: "intro", text: { nl: "Welkom", en: "Welcome!" } }];
    const outcome = mergeDocuments(schema, base, theirs, mine);
    expect(outcome.conflicts).toEqual([{ path: ["labels"], mine: mine.labels, theirs: theirs.labels }]);

    // Different entries: mine removes 'exit', theirs edits 'intro' and adds 'shop'.
    const disjoint = copy();
    disjoint.labels = [{ id: "intro", text: { nl: "Welkom", en: "Welcome" } }];
    const merged = mergeDocuments(schema, base, theirs, disjoint);
    expect(merged.conflicts).toEqual([]);
    expect(merged.merged.labels).toEqual([
      { id: "intro", text: { nl: "Welkom!", en: "Welcome" } },
      { id: "shop", text: { nl: "Winkel", en: "Shop" } },
    ]);
  });

  it("keeps other lists, references, media, tags and a disableable string's parts as whole values or by part", () => {
    const theirs = { ...copy(), rooms: [{ name: "Hall", floor: 1 }, base.rooms[1]], tags: ["sea", "light"], poster: "p3" };
    const mine = { ...copy(), rooms: [base.rooms[0], { name: "Attic", floor: 3 }], tags: ["sea", "storm"], poster: "p4" };
    const outcome = mergeDocuments(schema, base, theirs, mine);
    // Two different entries of a list of objects changed: the list is one value, so both changed it.
    expect(outcome.conflicts.map((conflict) => conflict.path.join(".")).sort()).toEqual(["poster", "rooms", "tags"]);
    expect(outcome.merged.rooms).toEqual(mine.rooms);

    const note = mergeDocuments(
      schema,
      base,
      { ...copy(), note: { value: "final", disabled: false } },
      { ...copy(), note: { value: "draft", disabled: true } },
    );
    expect(note.conflicts).toEqual([]);
    expect(note.merged.note).toEqual({ value: "final", disabled: true });
  });

  it("lets both sides make the same change, and a field one side removed stay removed", () => {
    const theirs = { ...copy(), year: 1900 };
    delete (theirs as Record<string, unknown>).maker;
    const mine = { ...copy(), year: 1900 };
    const outcome = mergeDocuments(schema, base, theirs, mine);
    expect(outcome.conflicts).toEqual([]);
    expect(outcome.merged.year).toBe(1900);
    expect("maker" in outcome.merged).toBe(false);
    expect(outcome.fromTheirs).toEqual([["maker"]]);
  });

  it("treats a field set on both sides where the loaded version had none as a conflict when they differ", () => {
    const bare = { title: { nl: "x", en: "x" } };
    const outcome = mergeDocuments(schema, bare, { ...bare, year: 1 }, { ...bare, year: 2 });
    expect(outcome.conflicts).toEqual([{ path: ["year"], mine: 2, theirs: 1 }]);
  });
});

describe("fieldLabel and sameJson", () => {
  it("names a path by its titles, a translated field's locale in brackets", () => {
    expect(fieldLabel(schema, ["title", "nl"])).toBe("Title (nl)");
    expect(fieldLabel(schema, ["section", "caption", "en"])).toBe("Section › Caption (en)");
    expect(fieldLabel(schema, ["images"])).toBe("Images");
  });

  it("compares JSON by structure, not key order", () => {
    expect(sameJson({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(true);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson(null, {})).toBe(false);
  });
});
