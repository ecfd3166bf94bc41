import { describe, expect, it } from "vitest";
import { fieldKind, type FieldKind } from "@core/form/field-kind";
import { initialValue } from "@core/form/kinds";
import { createAjv } from "@core/schema/ajv";
import { mapValidationErrors } from "@core/schema/errors";
import en from "@locales/en/common.json";
import nl from "@locales/nl/common.json";
import { INTEGER_STEP_ERROR, NESTED_TRANSLATE_ERROR, normalizeSchema, type JsonSchema } from "@core/schema/normalize";
import { acceptNumberInput, decimalsOf, defaultStep, parseNumberInput, stepValue } from "@core/schema/number";

/* Tables for the generic form's shared rules: normalisation, number input, messages, error mapping. */

describe("normalisation (spec §3)", () => {
  const LOCALES = ["nl", "en", "de"];
  const normalized = (schema: JsonSchema) => normalizeSchema({ type: "object", properties: schema }, LOCALES);

  it("expands translate: true into one string per locale, in the bucket's order, required when the property is", () => {
    const { schema, problems } = normalizeSchema(
      {
        type: "object",
        required: ["title"],
        properties: { title: { type: "string", translate: true, maxLength: 5 }, note: { type: "string", translate: true } },
      },
      LOCALES,
    );
    expect(problems).toEqual([]);
    const { title, note } = schema.properties as Record<string, JsonSchema>;
    expect(Object.keys(title!.properties as object)).toEqual(LOCALES);
    expect(title!.required).toEqual(LOCALES);
    expect((title!.properties as Record<string, JsonSchema>).de).toMatchObject({ type: "string", maxLength: 5 });
    expect(note!.required ?? []).toEqual([]);
  });

  it.each([
    ["directly", { outer: { type: "object", translate: true, properties: { inner: { type: "string", translate: true } } } }],
    [
      "deeper down",
      {
        outer: {
          type: "object",
          translate: true,
          properties: { box: { type: "object", properties: { inner: { type: "string", translate: true } } } },
        },
      },
    ],
  ])("refuses a translatable property inside a translatable one (%s)", (_where, properties) => {
    const { problems } = normalized(properties);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${NESTED_TRANSLATE_ERROR.replace(/[()[\]]/g, "\\$&")}`));
  });

  it.each([
    [{ type: "integer", step: 0.5 }, [INTEGER_STEP_ERROR]],
    [{ type: "integer", step: 0 }, [INTEGER_STEP_ERROR]],
    [{ type: "integer", step: 1 }, []],
    [{ type: "integer", step: 5 }, []],
    [{ type: "number", step: 0.01 }, []],
  ])("%j → schema errors %j, naming the property", (property, problems) => {
    expect(normalized({ count: property }).problems).toEqual(problems.map((problem) => `${problem} (/count)`));
  });

  it.each([
    ["a property", { pick: { type: "string", enum: { _data: "1/list" } } }, ["properties", "pick", "enum", "$data"]],
    [
      "a list item",
      { rows: { type: "array", items: { type: "object", properties: { pick: { enum: { _data: "2/list" } } } } } },
      ["properties", "rows", "items", "properties", "pick", "enum", "$data"],
    ],
  ])("renames _data to $data in %s", (_where, properties, path) => {
    let node: unknown = normalized(properties).schema;
    for (const key of path) node = (node as Record<string, unknown>)[key];
    expect(typeof node).toBe("string");
  });
});

describe("field kinds: renderer, then _ref, then format, then enum, then type", () => {
  it.each<[JsonSchema, FieldKind | null]>([
    [{ type: "string" }, "text"],
    [{ type: "string", renderer: "textarea" }, "textarea"],
    [{ type: "number" }, "number"],
    [{ type: "integer" }, "integer"],
    [{ type: "boolean" }, "boolean"],
    [{ type: "string", format: "date" }, "date"],
    [{ type: "string", format: "time" }, "time"],
    [{ type: "string", format: "color" }, "color"],
    [{ type: "string", enum: ["a", "b"] }, "enum"],
    [{ type: "string", enum: { $data: "1/list" } }, "enumData"],
    [{ type: "array", items: { type: "string" }, renderer: "tags" }, "tags"],
    [{ type: "array", items: { type: "string" } }, "array"],
    [{ type: "array", renderer: "texts" }, "texts"],
    [{ type: "object", properties: {} }, "object"],
    [{ type: "object", "x-disableable-bool": true }, "disableable"],
    [{ type: "string", _ref: "artists" }, "reference"],
    [{ type: "array", items: { type: "string", _ref: "artists" } }, "referenceList"],
    [{ type: "string", _ref: "artists", renderer: "popup" }, "popup"],
    [{ type: "string", format: "date", enum: ["2020-01-01"] }, "date"], // format before enum
    [{ type: "string", renderer: "textarea", format: "date" }, "textarea"], // renderer first
    [{ type: "null" }, null],
    [{}, null],
  ])("%j → %s", (schema, kind) => {
    expect(fieldKind(schema)).toBe(kind);
  });
});

describe("number input (spec §5)", () => {
  it.each([
    ["0", "integer", 0],
    ["007", "integer", 7],
    ["-12", "integer", -12],
    ["+12", "integer", 12],
    [" 12 ", "integer", 12],
    ["12,5", "integer", "invalid"],
    ["1e3", "integer", "invalid"],
    ["--1", "integer", "invalid"],
    ["-", "integer", "invalid"],
    ["", "integer", "empty"],
    ["   ", "number", "empty"],
    ["3,14", "number", 3.14],
    ["3.14", "number", 3.14],
    ["-0,5", "number", -0.5],
    ["+2.", "number", 2],
    ["1.000,5", "number", "invalid"],
    [".5", "number", "invalid"],
    ["1 000", "number", "invalid"],
    ["0x10", "number", "invalid"],
    ["Infinity", "number", "invalid"],
    ["12abc", "number", "invalid"],
  ] as const)("%j as %s → %s", (text, type, expected) => {
    const parsed = parseNumberInput(text, type);
    if (expected === "invalid" || expected === "empty") expect(parsed.kind).toBe(expected);
    else expect(parsed).toEqual({ kind: "value", value: expected });
  });

  it.each([
    ["abc", 4, 4],
    ["abc", undefined, undefined],
    ["", 4, undefined],
    ["5,5", 4, 5.5],
  ] as const)("typing %j after %s shows %s", (text, last, shown) => {
    expect(acceptNumberInput(text, "number", last)).toBe(shown);
  });

  it("defaults the step to 1 for integers and 0.1 for numbers", () => {
    expect(defaultStep("integer")).toBe(1);
    expect(defaultStep("number")).toBe(0.1);
  });

  it.each([
    [1, 0],
    [5, 0],
    [0.1, 1],
    [0.25, 2],
    [0.05, 2],
    [1e-7, 7],
    [1.5e-7, 8],
  ])("step %s has %s decimals", (step, decimals) => {
    expect(decimalsOf(step)).toBe(decimals);
  });

  it.each([
    [0.1, 0.2, 1, 0.3],
    [0.7, 0.1, 1, 0.8],
    [0.3, 0.1, -1, 0.2],
    [1, 0.05, -1, 0.95],
    [0.25, 0.25, 1, 0.5],
    [10, 5, 1, 15],
    [-0.1, 0.1, 1, 0],
    [undefined, 0.1, 1, 0.1],
    [undefined, 1, -1, -1],
    [2.345, 0.01, 1, 2.36],
  ] as const)("%s plus %s × %s → %s", (value, step, direction, result) => {
    expect(stepValue(value, step, direction)).toBe(result);
  });
});

describe("initial rows (spec §5)", () => {
  it.each([
    [{ type: "array", items: { type: "string" } }, 1],
    [{ type: "array", items: { type: "string" }, minItems: 3 }, 3],
    [{ type: "array", items: { type: "string" }, minItems: 3, fixedItems: 2 }, 2],
    [{ type: "array", items: { type: "string", _ref: "artists" } }, 0],
  ])("%j starts with %s row(s)", (schema, rows) => {
    expect((initialValue(schema) as unknown[]).length).toBe(rows);
  });

  it("starts time at 00:00:00 and a required colour at #000000; a colour that is not required starts empty", () => {
    expect(initialValue({ type: "string", format: "time" })).toBe("00:00:00");
    expect(initialValue({ type: "string", format: "color" }, true)).toBe("#000000");
    expect(initialValue({ type: "string", format: "color" })).toBeUndefined();
  });
});

describe("every message, in English and Dutch, with its parameters filled", () => {
  const { schema } = normalizeSchema(
    {
      type: "object",
      required: ["name"],
      properties: {
        name: { type: "string", isNotEmpty: true },
        short: { type: "string", maxLength: 3 },
        long: { type: "string", minLength: 4 },
        rooms: { type: "array", items: { type: "string" }, minItems: 2, maxItems: 3 },
        min: { type: "number", minimum: 5 },
        max: { type: "number", maximum: 5 },
        above: { type: "number", exclusiveMinimum: 5 },
        below: { type: "number", exclusiveMaximum: 5 },
        even: { type: "number", multipleOf: 2 },
        day: { type: "string", format: "date" },
        code: { type: "string", pattern: "^[A-Z]+$" },
        room: { type: "string", enum: ["east", "atrium"] },
        fixed: { const: "x" },
        count: { type: "integer" },
        title: { type: "string", translate: true },
      },
    },
    ["nl", "en"],
  );
  const validate = createAjv().compile(schema);

  it.each([
    ["required", { name: undefined }, "name", "This field is required", "Dit is een verplicht veld"],
    ["isNotEmpty", { name: "  " }, "name", "This field is required", "Dit is een verplicht veld"],
    ["type", { count: "seven" }, "count", "This field is required", "Dit is een verplicht veld"],
    ["minItems", { rooms: ["a"] }, "rooms", "This list should have minimum 2 item(s)", "Er moeten minstens 2 items in deze lijst zitten"],
    [
      "maxItems",
      { rooms: ["a", "b", "c", "d"] },
      "rooms",
      "This list can't contain more than 3 item(s)",
      "Er mogen maximaal 3 items in deze lijst zitten",
    ],
    [
      "maxLength",
      { short: "abcd" },
      "short",
      "This text can't be longer than 3 characters",
      "Deze tekst mag niet langer zijn dan 3 tekens",
    ],
    ["minLength", { long: "abc" }, "long", "This text should be at least 4 characters", "Deze tekst moet minstens 4 tekens lang zijn"],
    ["minimum", { min: 4 }, "min", "This value should be at least 5", "Deze waarde moet minstens 5 zijn"],
    ["maximum", { max: 6 }, "max", "This value can't be more than 5", "Deze waarde mag niet meer zijn dan 5"],
    ["exclusiveMinimum", { above: 5 }, "above", "This value should be more than 5", "Deze waarde moet groter zijn dan 5"],
    ["exclusiveMaximum", { below: 5 }, "below", "This value should be less than 5", "Deze waarde moet kleiner zijn dan 5"],
    ["multipleOf", { even: 3 }, "even", "This value should be a multiple of 2", "Deze waarde moet een veelvoud zijn van 2"],
    ["format", { day: "2024-13-01" }, "day", "This value is not a valid date", "Deze waarde is geen geldige datum"],
    ["pattern", { code: "abc" }, "code", "This value doesn't have the expected form", "Deze waarde heeft niet de verwachte vorm"],
    ["enum", { room: "cellar" }, "room", "Pick one of the options", "Kies een van de opties"],
    ["const", { fixed: "y" }, "fixed", "This value is not allowed", "Deze waarde is niet toegestaan"],
    ["additionalProperties", { stray: 1 }, "stray", "Unknown field: stray", "Onbekend veld: stray"],
  ])("%s", (_keyword, data, field, english, dutch) => {
    validate({ name: "ok", ...data });
    expect(mapValidationErrors(validate.errors, schema, "en").byField[field]).toEqual([english]);
    expect(mapValidationErrors(validate.errors, schema, "nl").byField[field]).toEqual([dutch]);
  });

  it("leaves no placeholder unfilled in any message", () => {
    validate({ rooms: [], short: "abcdef", min: 0, even: 1, day: "x", stray: 1, fixed: 1 });
    for (const locale of ["en", "nl"] as const) {
      for (const messages of Object.values(mapValidationErrors(validate.errors, schema, locale).byField)) {
        for (const message of messages) expect(message).not.toMatch(/\{\{/);
      }
    }
  });

  it("has the same keywords in both languages", () => {
    expect(Object.keys(nl.validation).sort()).toEqual(Object.keys(en.validation).sort());
  });
});

describe("error mapping", () => {
  const { schema } = normalizeSchema(
    {
      type: "object",
      properties: {
        title: { type: "string", translate: true, isNotEmpty: true },
        rooms: {
          type: "array",
          items: {
            type: "object",
            required: ["name"],
            properties: { name: { type: "string" }, label: { type: "string", translate: true, isNotEmpty: true } },
          },
        },
        intro: { type: "object", translate: true, properties: { heading: { type: "string", isNotEmpty: true } } },
      },
    },
    ["nl", "en"],
  );
  const validate = createAjv().compile(schema);

  it.each([
    [{ title: { nl: " ", en: "ok" } }, "title.nl", ["nl"]],
    [{ title: { nl: "ok", en: "" } }, "title.en", ["en"]],
    [{ rooms: [{ name: "a" }, { name: "b", label: { nl: "x", en: " " } }] }, "rooms[1].label.en", ["en"]],
    [{ rooms: [{}] }, "rooms[0].name", []],
    [{ intro: { nl: { heading: "x" }, en: { heading: " " } } }, "intro.en.heading", ["en"]],
  ])("%j → an error at %s, in locales %j", (data, field, locales) => {
    validate(data);
    const mapped = mapValidationErrors(validate.errors, schema, "en");
    expect(Object.keys(mapped.byField)).toEqual([field]);
    expect(mapped.locales).toEqual(locales);
  });

  it("keeps only the listed properties' errors for a partial form", () => {
    validate({ title: { nl: " ", en: " " }, rooms: [{}] });
    expect(Object.keys(mapValidationErrors(validate.errors, schema, "en", ["rooms"]).byField)).toEqual(["rooms[0].name"]);
    expect(Object.keys(mapValidationErrors(validate.errors, schema, "en", ["title"]).byField).sort()).toEqual(["title.en", "title.nl"]);
  });
});
