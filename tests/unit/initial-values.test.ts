import { describe, expect, it } from "vitest";
import { coerceFormValue, initialValue } from "@core/form/kinds";
import { documentResolver } from "@core/form/resolve";
import { translateMessage } from "@core/messages";
import { checkSchemaDialect } from "@core/schema/dialect";
import { compileBucketSchema } from "@server/content/validator";

/*
 * What a new document starts with and what an untouched part of it means (issue 36 items 5, 6, 7;
 * core/form/kinds.ts): a row nobody touched is a spare row whatever its switches show, a colour that is not
 * required stays empty until chosen, and a property's `default` starts it (checked when the schema is saved).
 */

const ROOM = {
  type: "object",
  required: ["name"],
  properties: {
    name: { type: "string" },
    open: { type: "boolean" },
    at: { type: "string", format: "time" },
    label: { type: "object", "x-disableable-bool": true },
    sign: { type: "string", translate: true },
    lit: { type: "boolean", translate: true },
  },
};
const DOCUMENT = { type: "object", properties: { rooms: { type: "array", items: ROOM } } };

describe("an untouched list row is a spare row (item 5)", () => {
  const { schema, validate } = compileBucketSchema({ jsonSchema: DOCUMENT, locales: ["nl", "en"] });
  const resolve = (payload: Record<string, unknown>) => documentResolver({ schema, validate, messageLocale: "en" })(payload);
  /** A row as the form posts it untouched: unchecked switches send nothing, the time its 00:00:00, texts "". */
  const untouchedRow = { name: "", at: "00:00:00", label: { value: "" }, sign: { nl: "", en: "" } };

  it("saves a new document whose only row nobody touched, switches and all", () => {
    expect(resolve({ rooms: [untouchedRow] })).toEqual({ value: { rooms: [] } });
  });

  it("drops every untouched row at the end, and keeps a touched one", () => {
    expect(resolve({ rooms: [{ ...untouchedRow, name: "Hall" }, untouchedRow, untouchedRow] })).toEqual({
      value: { rooms: [{ name: "Hall", at: "00:00:00", open: false, label: { disabled: false } }] },
    });
  });

  it("counts a switch turned on, or a time changed, as input: the row's required fields are then reported", () => {
    expect(resolve({ rooms: [{ ...untouchedRow, open: "on" }] })).toEqual({ error: { "rooms[0].name": ["This field is required"] } });
    expect(resolve({ rooms: [{ ...untouchedRow, lit: { en: "on" } }] })).toEqual({
      error: { "rooms[0].name": ["This field is required"] },
    });
    expect(resolve({ rooms: [{ ...untouchedRow, at: "09:00:00" }] })).toEqual({ error: { "rooms[0].name": ["This field is required"] } });
    expect(resolve({ rooms: [{ ...untouchedRow, label: { value: "", disabled: "on" } }] })).toEqual({
      error: { "rooms[0].name": ["This field is required"] },
    });
  });

  it("keeps an untouched row before a filled one in its place, with its errors", () => {
    const result = resolve({ rooms: [untouchedRow, { ...untouchedRow, name: "Hall" }] });
    expect(result).toEqual({ error: { "rooms[0].name": ["This field is required"] } });
    expect(coerceFormValue({ rooms: [untouchedRow, { name: "Hall" }] }, schema)).toMatchObject({
      rooms: [{ open: false }, { name: "Hall" }],
    });
  });

  it("compares with the row's defaults: a switch that starts on and was left on is untouched, one turned off is not", () => {
    const items = {
      type: "object",
      required: ["name"],
      properties: { name: { type: "string" }, open: { type: "boolean", default: true } },
    };
    const list = { type: "array", items };
    expect(coerceFormValue([{ name: "", open: "on" }], list)).toEqual([]);
    expect(coerceFormValue([{ name: "" }], list)).toEqual([{ open: false }]);
  });
});

describe("a colour that is not required starts empty (item 6)", () => {
  const jsonSchema = {
    type: "object",
    required: ["main"],
    properties: {
      main: { type: "string", format: "color" },
      accent: { type: "string", format: "color" },
      swatches: { type: "array", items: { type: "string", format: "color" } },
      theme: {
        type: "object",
        required: ["ink"],
        properties: { ink: { type: "string", format: "color" }, paper: { type: "string", format: "color" } },
      },
    },
  };

  it("starts only the required colours at #000000", () => {
    expect(initialValue(jsonSchema)).toEqual({ main: "#000000", swatches: [""], theme: { ink: "#000000" } });
  });

  it("saves no colour for an empty one, and a cleared colour is gone", () => {
    const { schema, validate } = compileBucketSchema({ jsonSchema, locales: ["en"] });
    const resolve = documentResolver({ schema, validate, messageLocale: "en" });
    expect(resolve({ main: "#112233", accent: "", swatches: [""], theme: { ink: "#000000" } })).toEqual({
      value: { main: "#112233", swatches: [], theme: { ink: "#000000" } },
    });
    expect(resolve({ theme: { paper: "#ffffff" } })).toEqual({
      error: { main: ["This field is required"], "theme.ink": ["This field is required"] },
    });
  });
});

describe("a property's default starts a new document (item 7)", () => {
  it("uses the default of every kind, in nested objects and list rows too", () => {
    const schema = {
      type: "object",
      properties: {
        name: { type: "string", default: "Untitled" },
        count: { type: "integer", default: 3 },
        on: { type: "boolean", default: true },
        at: { type: "string", format: "time", default: "09:30:00" },
        accent: { type: "string", format: "color", default: "#ff0000" },
        room: { type: "string", enum: ["east", "atrium"], default: "atrium" },
        tags: { type: "array", renderer: "tags", items: { type: "string" }, default: ["a", "b"] },
        place: { type: "object", properties: { city: { type: "string", default: "Utrecht" }, open: { type: "boolean" } } },
        rooms: { type: "array", minItems: 2, items: { type: "object", properties: { seats: { type: "integer", default: 10 } } } },
        slots: { type: "array", items: { type: "string", default: "morning" } },
        banner: {
          type: "object",
          "x-disableable-bool": true,
          properties: { value: { type: "string" }, disabled: { type: "boolean" } },
          default: { value: "Hi", disabled: true },
        },
      },
    };
    expect(initialValue(schema)).toEqual({
      name: "Untitled",
      count: 3,
      on: true,
      at: "09:30:00",
      accent: "#ff0000",
      room: "atrium",
      tags: ["a", "b"],
      place: { city: "Utrecht", open: false },
      rooms: [{ seats: 10 }, { seats: 10 }],
      slots: ["morning"],
      banner: { value: "Hi", disabled: true },
    });
  });

  it("gives every row its own copy of a default", () => {
    const rows = initialValue({
      type: "array",
      minItems: 2,
      items: { type: "object", properties: { tags: { type: "array", items: { type: "string" }, default: ["x"] } } },
    }) as Array<{ tags: string[] }>;
    expect(rows[0]?.tags).not.toBe(rows[1]?.tags);
  });
});

describe("the bucket admin refuses a default its property does not accept (item 7)", () => {
  const check = (properties: Record<string, unknown>, locale: "en" | "nl" = "en") =>
    checkSchemaDialect({ type: "object", properties }, { locales: ["nl", "en"], collections: [] }).map((message) =>
      translateMessage(locale, message),
    );

  it("accepts defaults that fit", () => {
    expect(
      check({
        name: { type: "string", default: "x", translate: true },
        accent: { type: "string", format: "color", default: "#123456" },
        rooms: { type: "array", items: { type: "object", required: ["n"], properties: { n: { type: "integer" } } }, default: [{ n: 1 }] },
        pick: { type: "string", enum: { $data: "1/name" }, default: "x" },
      }),
    ).toEqual([]);
  });

  it("names the property and says why, in the admin's language", () => {
    expect(check({ accent: { type: "string", format: "color", default: "red" } })).toEqual([
      'properties.accent: the default "red" does not fit this property: This value is not a valid colour',
    ]);
    expect(check({ accent: { type: "string", format: "color", default: "red" } }, "nl")).toEqual([
      'properties.accent: de standaardwaarde "red" past niet bij deze eigenschap: Deze waarde is geen geldige kleur',
    ]);
    expect(check({ count: { type: "integer", maximum: 5, default: 7 } })).toEqual([
      "properties.count: the default 7 does not fit this property: This value can't be more than 5",
    ]);
    expect(check({ title: { type: "string", translate: true, maxLength: 2, default: "abc" } })).toEqual([
      'properties.title: the default "abc" does not fit this property: This text can\'t be longer than 2 characters',
    ]);
  });

  it("finds defaults inside objects and lists, and says where inside the default the problem is", () => {
    expect(
      check({
        place: { type: "object", properties: { open: { type: "boolean", default: "yes" } } },
        rooms: {
          type: "array",
          items: { type: "object", required: ["n"], properties: { n: { type: "integer" } } },
          default: [{ n: 1 }, {}],
        },
      }),
    ).toEqual([
      'properties.place.properties.open: the default "yes" does not fit this property: This field is required',
      'properties.rooms: the default [{"n":1},{}] does not fit this property (1.n): This field is required',
    ]);
  });
});
