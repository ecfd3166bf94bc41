import { describe, expect, it } from "vitest";
import { diffTargets, diffVersions, documentRows, type DiffRow } from "@core/content/version-diff";
import { normalizeSchema } from "@core/schema/normalize";

/* The field-by-field difference of two document versions (core/content/version-diff.ts), walked along the schema. */

const IMAGE = "11111111-1111-4111-8111-111111111111";
const OTHER_IMAGE = "22222222-2222-4222-8222-222222222222";
const ARTIST = "33333333-3333-4333-8333-333333333333";
const OTHER_ARTIST = "44444444-4444-4444-8444-444444444444";

const { schema } = normalizeSchema(
  {
    type: "object",
    properties: {
      title: { type: "string", title: "Title", translate: true },
      year: { type: "integer", title: "Year" },
      featured: { type: "boolean", title: "Featured" },
      picture: { type: "string", _ref: "b-image", title: "Picture" },
      clip: { type: "string", _ref: "b-video", title: "Clip" },
      artist: { type: "string", _ref: "artists", title: "Artist" },
      works: { type: "array", title: "Works", items: { type: "string", _ref: "artworks" } },
      rooms: { type: "array", title: "Rooms", items: { type: "object", properties: { name: { type: "string", title: "Room name" } } } },
      tags: { type: "array", renderer: "tags", items: { type: "string" } },
    },
  },
  ["nl", "en"],
);

/** Each row as "Label › Label: before → after" for compact tables. */
const text = (value: DiffRow["before"]) =>
  value.kind === "empty"
    ? "∅"
    : value.kind === "text"
      ? value.text
      : value.kind === "boolean"
        ? String(value.value)
        : value.kind === "date"
          ? value.iso
          : `${value.kind}:${value.contentId}`;
const lines = (rows: DiffRow[]) =>
  rows.map(
    (row) =>
      `${row.labels.map((label) => (label.kind === "item" ? `#${label.index + 1}` : label.locale ? `(${label.title})` : label.title)).join(" › ")}: ${text(row.before)} → ${text(row.after)} [${row.change}]`,
  );

describe("diffVersions", () => {
  it("finds nothing between equal versions, whatever their key order, and treats missing, null and empty text alike", () => {
    expect(diffVersions(schema, { year: 1, title: { nl: "a", en: "b" } }, { title: { en: "b", nl: "a" }, year: 1 })).toEqual([]);
    expect(diffVersions(schema, { title: { nl: "" } }, { title: { nl: null } })).toEqual([]);
    expect(diffVersions(schema, {}, { tags: [] })).toEqual([]);
  });

  it("labels rows by the fields' titles, a translated field per locale, in the schema's order", () => {
    const rows = diffVersions(
      schema,
      { title: { nl: "Wad", en: "Mudflats" }, year: 1911, featured: false },
      { year: 1912, title: { nl: "Wadden", en: "Mudflats" }, featured: true },
    );
    expect(lines(rows)).toEqual([
      "Title › (nl): Wad → Wadden [changed]",
      "Year: 1911 → 1912 [changed]",
      "Featured: false → true [changed]",
    ]);
    expect(rows.map((row) => row.name)).toEqual(["title.nl", "year", "featured"]);
  });

  it("compares lists item by item: added and removed items, objects in lists by their fields", () => {
    const rows = diffVersions(
      schema,
      { rooms: [{ name: "East" }, { name: "West" }], tags: ["sea"] },
      { rooms: [{ name: "East" }, { name: "North" }, { name: "South" }], tags: [] },
    );
    expect(lines(rows)).toEqual([
      "Rooms › #2 › Room name: West → North [changed]",
      "Rooms › #3 › Room name: ∅ → South [added]",
      "tags › #1: sea → ∅ [removed]",
    ]);
    expect(rows.map((row) => row.name)).toEqual(["rooms[1].name", "rooms[2].name", "tags[0]"]);
  });

  it("types media and references so that they show as thumbnails and titles", () => {
    const rows = diffVersions(
      schema,
      { picture: IMAGE, artist: ARTIST, works: [ARTIST] },
      { picture: OTHER_IMAGE, clip: IMAGE, artist: OTHER_ARTIST, works: [ARTIST, OTHER_ARTIST] },
    );
    expect(rows.map((row) => [row.name, row.before, row.after])).toEqual([
      ["picture", { kind: "media", media: "image", contentId: IMAGE }, { kind: "media", media: "image", contentId: OTHER_IMAGE }],
      ["clip", { kind: "empty" }, { kind: "media", media: "video", contentId: IMAGE }],
      [
        "artist",
        { kind: "reference", collection: "artists", contentId: ARTIST },
        { kind: "reference", collection: "artists", contentId: OTHER_ARTIST },
      ],
      ["works[1]", { kind: "empty" }, { kind: "reference", collection: "artworks", contentId: OTHER_ARTIST }],
    ]);
    const targets = diffTargets(rows);
    expect([...targets.media].sort()).toEqual([IMAGE, OTHER_IMAGE]);
    expect(Object.fromEntries([...targets.references].map(([collection, ids]) => [collection, [...ids].sort()]))).toEqual({
      artists: [ARTIST, OTHER_ARTIST],
      artworks: [OTHER_ARTIST],
    });
  });

  it("compares data the schema no longer describes by its keys, and a value whose type changed as a whole", () => {
    const rows = diffVersions(schema, { retired: "old", year: { odd: 1 } }, { year: 1999 });
    expect(lines(rows)).toEqual(['Year: {"odd":1} → 1999 [changed]', "retired: old → ∅ [removed]"]);
  });
});

describe("documentRows", () => {
  it("lists a document's filled values along the schema, as a comparison with an empty document would", () => {
    const data = { year: 1911, title: { nl: "Wad", en: "" }, picture: IMAGE, rooms: [{ name: "East" }, {}], tags: [], featured: false };
    const rows = documentRows(schema, data);
    expect(rows.map((row) => row.name)).toEqual(["title.nl", "year", "featured", "picture", "rooms[0].name"]);
    expect(rows.map((row) => row.value)).toEqual([
      { kind: "text", text: "Wad" },
      { kind: "text", text: "1911" },
      { kind: "boolean", value: false },
      { kind: "media", media: "image", contentId: IMAGE },
      { kind: "text", text: "East" },
    ]);
    expect(rows[0]!.labels).toEqual([
      { kind: "field", title: "Title" },
      { kind: "field", title: "nl", locale: true },
    ]);
    expect(documentRows(schema, {})).toEqual([]);
  });

  it("shows a disableable value as its value under the field's label, leaves it out when disabled, and types dates", () => {
    const { schema: shown } = normalizeSchema(
      {
        type: "object",
        properties: {
          banner: { type: "object", title: "Banner", "x-disableable-bool": true },
          notice: { type: "object", title: "Notice", "x-disableable-bool": true },
          opens: { type: "string", format: "date", title: "Opens" },
          updated: { type: "string", format: "date-time", title: "Updated" },
          odd: { type: "string", format: "date", title: "Odd" },
        },
      },
      ["nl", "en"],
    );
    const data = {
      banner: { value: "Closed on Monday", disabled: false },
      notice: { value: "Hidden", disabled: true },
      opens: "2026-03-01",
      updated: "2026-03-01T09:30:00Z",
      odd: "soon",
    };
    const rows = documentRows(shown, data);
    expect(rows.map((row) => [row.name, row.labels, row.value])).toEqual([
      ["banner", [{ kind: "field", title: "Banner" }], { kind: "text", text: "Closed on Monday" }],
      ["opens", [{ kind: "field", title: "Opens" }], { kind: "date", iso: "2026-03-01T00:00:00Z", dateOnly: true }],
      ["updated", [{ kind: "field", title: "Updated" }], { kind: "date", iso: "2026-03-01T09:30:00Z", dateOnly: false }],
      ["odd", [{ kind: "field", title: "Odd" }], { kind: "text", text: "soon" }],
    ]);
    // A comparison keeps showing the switch itself: turning a value off is a change.
    expect(diffVersions(shown, data, { ...data, banner: { value: "Closed on Monday", disabled: true } }).map((row) => row.name)).toEqual([
      "banner.disabled",
    ]);
  });
});
