import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  compareSchemaProperties,
  confirmBreakingShape,
  confirmedBreaking,
  generalizeFieldName,
  holdsValueAt,
  impactNeedsConfirmation,
  readSchemaText,
} from "./impact";
import { normalizeSchema } from "./normalize";

const normalized = (schema: unknown) => normalizeSchema(schema, ["nl", "en"]).schema;
const changes = (before: unknown, after: unknown) =>
  compareSchemaProperties(normalized(before), normalized(after)).map(({ kind, property, renamedTo }) => [
    kind,
    property,
    renamedTo ?? null,
  ]);
const object = (properties: Record<string, unknown>) => ({ type: "object", properties });

describe("compareSchemaProperties", () => {
  it("lists removed properties, the outermost only", () => {
    const before = object({ title: { type: "string" }, size: object({ height: { type: "number" }, width: { type: "number" } }) });
    expect(changes(before, object({ title: { type: "string" } }))).toEqual([["removed", "size", null]]);
  });

  it("takes an added property of the same shape in the same place as a rename, titles and notes aside", () => {
    const before = object({ maker: { type: "string", title: "Maker", maxLength: 80 } });
    const after = object({ artist: { type: "string", title: "Artist", note: "Who made it", maxLength: 80 } });
    expect(changes(before, after)).toEqual([["renamed", "maker", "artist"]]);
    // Another bound is another shape.
    expect(changes(before, object({ artist: { type: "string", maxLength: 40 } }))).toEqual([["removed", "maker", null]]);
  });

  it("finds renames inside lists and translated properties", () => {
    const rooms = (name: string) => ({ type: "array", items: object({ [name]: { type: "integer" } }) });
    expect(changes(object({ rooms: rooms("capacity") }), object({ rooms: rooms("seats") }))).toEqual([
      ["renamed", "rooms[].capacity", "rooms[].seats"],
    ]);
    expect(changes(object({ title: { type: "string", translate: true } }), object({ name: { type: "string", translate: true } }))).toEqual([
      ["renamed", "title", "name"],
    ]);
  });

  it("among several candidates picks the one with the same title, else the closest name, else none", () => {
    const before = object({ maker: { type: "string", title: "Maker" }, inventoryNumber: { type: "string", title: "Inventory number" } });
    expect(changes(before, object({ inventory: { type: "string", title: "Inventory number" } }))).toEqual([
      ["removed", "maker", null],
      ["renamed", "inventoryNumber", "inventory"],
    ]);
    expect(changes(before, object({ inventory: { type: "string" } }))).toEqual([
      ["removed", "maker", null],
      ["renamed", "inventoryNumber", "inventory"],
    ]);
    expect(changes(before, object({ code: { type: "string" } }))).toEqual([
      ["removed", "maker", null],
      ["removed", "inventoryNumber", null],
    ]);
  });
});

describe("holdsValueAt", () => {
  it("finds a value at a path, in any row of a list, and not in empty values", () => {
    const data = { maker: "", rooms: [{ name: "Hall" }, { name: "Attic", capacity: 0 }], title: { nl: "", en: " " } };
    expect(holdsValueAt(data, ["rooms", null, "capacity"])).toBe(true);
    expect(holdsValueAt(data, ["maker"])).toBe(false);
    expect(holdsValueAt(data, ["title"])).toBe(false);
    expect(holdsValueAt(data, ["missing", "deeper"])).toBe(false);
    expect(holdsValueAt({ rooms: "not a list" }, ["rooms", null, "name"])).toBe(false);
  });
});

describe("the rest of the shared part", () => {
  it("generalizes list indexes out of field names", () => {
    expect(generalizeFieldName("rooms[3].items[12].title.nl")).toBe("rooms[].items[].title.nl");
  });

  it("needs confirmation when documents break or hold values in removed properties", () => {
    expect(impactNeedsConfirmation({ failing: 0, changes: [] })).toBe(false);
    expect(impactNeedsConfirmation({ failing: 1, changes: [] })).toBe(true);
    expect(impactNeedsConfirmation({ failing: 0, changes: [{ kind: "removed", property: "a", count: 2, documents: [] }] })).toBe(true);
    expect(impactNeedsConfirmation({ failing: 0, changes: [{ kind: "removed", property: "a", count: 0, documents: [] }] })).toBe(false);
  });

  it("reads the confirmation checkbox and the posted schema", () => {
    expect(confirmedBreaking(new URLSearchParams("confirmBreaking=on"))).toBe(true);
    expect(confirmedBreaking(new URLSearchParams(""))).toBe(false);
    const form = z.object({ name: z.string(), ...confirmBreakingShape });
    expect(form.parse({ name: "x", confirmBreaking: true })).toEqual({ name: "x", confirmBreaking: true });
    expect(form.parse({ name: "x" })).toEqual({ name: "x" });
    expect(readSchemaText('{"type":"object"}')).toEqual({ ok: true, schema: { type: "object" } });
    expect(readSchemaText(" ")).toEqual({ ok: false, error: { key: "schemaImpact.errors.schemaRequired" } });
    expect(readSchemaText("{")).toEqual({ ok: false, error: { key: "schemaImpact.errors.invalidJson" } });
    expect(readSchemaText("null")).toEqual({ ok: false, error: { key: "schemaImpact.errors.notObject" } });
  });
});
