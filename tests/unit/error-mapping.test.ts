import type { ErrorObject } from "ajv";
import { parse } from "@conform-to/react";
import { describe, expect, it } from "vitest";
import { BASE_VERSION_FIELD, CONTENT_ID_FIELD, isSchemaField, resolveDocument } from "@core/form/resolve";
import { createAjv } from "@core/schema/ajv";
import { fieldPointer, localeOfPointer, mapValidationErrors } from "@core/schema/errors";
import { normalizeSchema, type JsonSchema } from "@core/schema/normalize";
import { nameToSegments, pointerToName } from "@core/schema/path";
import { compileBucketSchema } from "@server/content/validator";

/*
 * Spec §5: every AJV error lands under its form field (`rooms[0].title.nl`), the locale
 * of the nearest translatable ancestor is reported, the partial form keeps only its
 * properties' errors, messages are in the configured default locale.
 */

const LOCALES = ["nl", "en"];

const RAW_SCHEMA = {
  type: "object",
  required: ["title", "count"],
  properties: {
    title: { type: "string", translate: true, isNotEmpty: true, maxLength: 20 },
    count: { type: "integer", minimum: 1, maximum: 10 },
    price: { type: "number", exclusiveMinimum: 0 },
    code: { type: "string", pattern: "^[A-Z]+$" },
    short: { type: "string", maxLength: 3 },
    day: { type: "string", format: "date" },
    at: { type: "string", format: "time" },
    colour: { type: "string", format: "color" },
    room: { type: "string", enum: ["east", "atrium"] },
    tags: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 2 },
    options: { type: "array", items: { type: "string" } },
    pick: { type: "string", enum: { _data: "1/options" } },
    rooms: {
      type: "array",
      items: {
        type: "object",
        required: ["name"],
        properties: {
          name: { type: "string", isNotEmpty: true },
          label: { type: "string", translate: true, isNotEmpty: true },
          pick: { type: "string", enum: { _data: "3/options" } },
          capacity: { type: "number", minimum: 0 },
        },
      },
    },
    intro: {
      type: "object",
      translate: true,
      properties: { heading: { type: "string", isNotEmpty: true }, lines: { type: "array", items: { type: "string", maxLength: 2 } } },
    },
    "a/b": { type: "string", maxLength: 1 },
    "x~y": { type: "string", maxLength: 1 },
  },
};

const compiled = compileBucketSchema({ jsonSchema: RAW_SCHEMA, locales: LOCALES });
const schema = compiled.schema;
const validate = compiled.validate!;
const VALID = { title: { nl: "Titel", en: "Title" }, count: 1 };

function errorsOf(data: unknown, locale: "en" | "nl" = "en", only?: readonly string[]) {
  expect(validate(data)).toBe(false);
  return mapValidationErrors(validate.errors, schema, locale, only);
}

describe("the test schema", () => {
  it("compiles without problems and accepts the valid document", () => {
    expect(compiled.problems).toEqual([]);
    expect(validate(VALID)).toBe(true);
    expect(
      validate({ ...VALID, options: ["a"], pick: "a", rooms: [{ name: "r", label: { nl: "x", en: "y" }, pick: "a", capacity: 0 }] }),
    ).toBe(true);
  });
});

describe("each AJV error → one message under its form field, with the translatable ancestor's locale", () => {
  it.each<[string, Record<string, unknown>, string, string, string[]]>([
    // keyword, change to VALID, field, English message, locales with errors
    ["required", { count: undefined }, "count", "This field is required", []],
    ["required, a missing locale", { title: { nl: "Titel" } }, "title.en", "This field is required", ["en"]],
    ["required, in a list row", { rooms: [{ name: "a" }, {}] }, "rooms[1].name", "This field is required", []],
    ["type", { count: "seven" }, "count", "This field is required", []],
    ["type, integer given a fraction", { count: 2.5 }, "count", "This field is required", []],
    ["type, in a list row", { rooms: [{ name: "a", capacity: "x" }] }, "rooms[0].capacity", "This field is required", []],
    ["type, a locale that is not a string", { title: { nl: 5, en: "Title" } }, "title.nl", "This field is required", ["nl"]],
    ["minimum", { count: 0 }, "count", "This value should be at least 1", []],
    ["minimum, in a list row", { rooms: [{ name: "a", capacity: -1 }] }, "rooms[0].capacity", "This value should be at least 0", []],
    ["maximum", { count: 11 }, "count", "This value can't be more than 10", []],
    ["exclusiveMinimum", { price: 0 }, "price", "This value should be more than 0", []],
    ["maxLength", { short: "abcd" }, "short", "This text can't be longer than 3 characters", []],
    [
      "maxLength, one locale",
      { title: { nl: "x".repeat(21), en: "Title" } },
      "title.nl",
      "This text can't be longer than 20 characters",
      ["nl"],
    ],
    ["minItems", { tags: [] }, "tags", "This list should have minimum 1 item(s)", []],
    ["maxItems", { tags: ["a", "b", "c"] }, "tags", "This list can't contain more than 2 item(s)", []],
    ["enum", { room: "cellar" }, "room", "Pick one of the options", []],
    ["format date", { day: "2024-13-01" }, "day", "This value is not a valid date", []],
    ["format time", { at: "25:00:00" }, "at", "This value is not a valid time", []],
    ["format color", { colour: "#fff" }, "colour", "This value is not a valid colour", []],
    ["pattern", { code: "abc" }, "code", "This value doesn't have the expected form", []],
    ["isNotEmpty", { rooms: [{ name: "   " }] }, "rooms[0].name", "This field is required", []],
    ["isNotEmpty, one locale", { title: { nl: "Titel", en: " \t " } }, "title.en", "This field is required", ["en"]],
    [
      "isNotEmpty, a translated field in a list row",
      { rooms: [{ name: "a" }, { name: "b", label: { nl: "", en: "ok" } }] },
      "rooms[1].label.nl",
      "This field is required",
      ["nl"],
    ],
    [
      "isNotEmpty, inside a translated object",
      { intro: { nl: { heading: "x" }, en: { heading: "" } } },
      "intro.en.heading",
      "This field is required",
      ["en"],
    ],
    [
      "maxLength, a list inside a translated object",
      { intro: { nl: { heading: "x", lines: ["ok", "abc"] } } },
      "intro.nl.lines[1]",
      "This text can't be longer than 2 characters",
      ["nl"],
    ],
    ["additionalProperties", { stray: 1 }, "stray", "Unknown field: stray", []],
    ["additionalProperties, in a list row", { rooms: [{ name: "a", extra: 1 }] }, "rooms[0].extra", "Unknown field: extra", []],
    [
      "additionalProperties, a locale the bucket does not have",
      { title: { nl: "Titel", en: "Title", de: "Titel" } },
      "title.de",
      "Unknown field: de",
      [],
    ],
    ["$data enum", { options: ["a", "b"], pick: "c" }, "pick", "Pick one of the options", []],
    ["$data enum, in a list row", { options: ["a"], rooms: [{ name: "r", pick: "b" }] }, "rooms[0].pick", "Pick one of the options", []],
    ["a name with a slash", { "a/b": "xx" }, "a/b", "This text can't be longer than 1 characters", []],
    ["a name with a tilde", { "x~y": "xx" }, "x~y", "This text can't be longer than 1 characters", []],
  ])("%s", (_keyword, change, field, message, locales) => {
    const data: Record<string, unknown> = Object.fromEntries(
      Object.entries<unknown>({ ...VALID, ...change }).filter(([, value]) => value !== undefined),
    );
    const { byField, locales: errorLocales } = errorsOf(data);
    expect(byField).toEqual({ [field]: [message] });
    expect(errorLocales).toEqual(locales);
  });

  it("collects every error of a document at once, and the locales of all of them", () => {
    const { byField, locales } = errorsOf({
      title: { nl: " ", en: "Title" },
      count: 0,
      rooms: [{ name: "a", label: { nl: "ok", en: "" } }, {}],
      stray: true,
    });
    expect(byField).toEqual({
      "title.nl": ["This field is required"],
      count: ["This value should be at least 1"],
      "rooms[1].name": ["This field is required"],
      "rooms[0].label.en": ["This field is required"],
      stray: ["Unknown field: stray"],
    });
    expect([...locales].sort()).toEqual(["en", "nl"]);
  });

  it("gives Dutch messages when the configured default locale is Dutch", () => {
    const { byField } = errorsOf({ title: { nl: "Titel" }, count: 0, short: "abcd", tags: [], stray: 1 }, "nl");
    expect(byField).toEqual({
      "title.en": ["Dit is een verplicht veld"],
      count: ["Deze waarde moet minstens 1 zijn"],
      short: ["Deze tekst mag niet langer zijn dan 3 tekens"],
      tags: ["Er moeten minstens 1 items in deze lijst zitten"],
      stray: ["Onbekend veld: stray"],
    });
  });
});

describe("several errors on one field", () => {
  const ajv = createAjv();
  it.each<[string, JsonSchema, unknown, string[]]>([
    [
      "two rules: both messages, in order",
      { type: "string", minLength: 2, pattern: "^[0-9]+$" },
      "a",
      ["This text should be at least 2 characters", "This value doesn't have the expected form"],
    ],
    ["the same message twice: shown once", { allOf: [{ minimum: 5 }, { minimum: 5 }] }, 1, ["This value should be at least 5"]],
    [
      "the same message from two keywords: shown once",
      { anyOf: [{ type: "string" }, { type: "number" }] },
      true,
      ["This field is required", "This value is not valid"],
    ],
  ])("%s", (_case, property, value, messages) => {
    const { schema: local } = normalizeSchema({ type: "object", properties: { f: property } }, ["en"]);
    const check = ajv.compile(local);
    expect(check({ f: value })).toBe(false);
    expect(mapValidationErrors(check.errors, local, "en").byField).toEqual({ f: messages });
  });
});

describe("a keyword without its own message gets the default one", () => {
  const ajv = createAjv();
  it.each<[string, JsonSchema, unknown]>([
    ["uniqueItems", { type: "array", uniqueItems: true }, ["a", "a"]],
    ["not", { not: { const: "x" } }, "x"],
    ["oneOf", { oneOf: [{ type: "string" }, { type: "string" }] }, "a"],
    ["minProperties", { type: "object", minProperties: 1 }, {}],
  ])("%s", (_keyword, property, value) => {
    const { schema: local } = normalizeSchema({ type: "object", properties: { f: property } }, ["en"]);
    const check = ajv.compile(local);
    expect(check({ f: value })).toBe(false);
    expect(mapValidationErrors(check.errors, local, "en").byField.f).toContain("This value is not valid");
    expect(mapValidationErrors(check.errors, local, "nl").byField.f).toContain("Deze waarde is niet geldig");
  });
});

describe("the partial form (popup sub-form) shows only its properties' errors", () => {
  const data = { title: { nl: " " }, count: 0, rooms: [{}], tags: [] };
  it.each<[readonly string[] | undefined, string[]]>([
    [undefined, ["count", "rooms[0].name", "tags", "title.en", "title.nl"]],
    [["rooms"], ["rooms[0].name"]],
    [["title"], ["title.en", "title.nl"]],
    [
      ["title", "count"],
      ["count", "title.en", "title.nl"],
    ],
    [
      ["tags", "rooms"],
      ["rooms[0].name", "tags"],
    ],
    [["room"], []], // a prefix of rooms is another property
    [["code"], []],
    [[], []],
  ])("only %j → %j", (only, fields) => {
    const { byField, locales } = errorsOf(data, "en", only);
    expect(Object.keys(byField).sort()).toEqual(fields);
    // the locales follow the errors that are kept
    expect([...locales].sort()).toEqual(fields.some((field) => field.startsWith("title.")) ? ["en", "nl"] : []);
  });
});

describe("pointers and names", () => {
  it.each<[string, string]>([
    ["", ""],
    ["/title", "title"],
    ["/title/nl", "title.nl"],
    ["/rooms/0", "rooms[0]"],
    ["/rooms/0/title/nl", "rooms[0].title.nl"],
    ["/rooms/12/tags/3", "rooms[12].tags[3]"],
    ["/grid/0/1", "grid[0][1]"],
    ["/a~1b", "a/b"],
    ["/x~0y", "x~y"],
    ["/x~01", "x~1"], // ~0 is read after ~1, as RFC 6901 says
  ])("%j → %j", (pointer, name) => {
    expect(pointerToName(pointer, schema)).toBe(name);
  });

  it.each<[string, Array<string | number>]>([
    ["title", ["title"]],
    ["rooms[0].title.nl", ["rooms", 0, "title", "nl"]],
    ["grid[0][1]", ["grid", 0, 1]],
    ["a/b", ["a/b"]],
  ])("%j → %j", (name, segments) => {
    expect(nameToSegments(name)).toEqual(segments);
  });

  const error = (keyword: string, instancePath: string, params: Record<string, unknown>) =>
    ({ keyword, instancePath, params, schemaPath: "#" }) as ErrorObject;
  it.each<[ErrorObject, string]>([
    [error("required", "", { missingProperty: "count" }), "/count"],
    [error("required", "/rooms/0", { missingProperty: "name" }), "/rooms/0/name"],
    [error("required", "", { missingProperty: "a/b" }), "/a~1b"],
    [error("additionalProperties", "/title", { additionalProperty: "de" }), "/title/de"],
    [error("additionalProperties", "", { additionalProperty: "x~y" }), "/x~0y"],
    [error("maxLength", "/title/nl", { limit: 3 }), "/title/nl"],
  ])("%j points at %s", (ajvError, pointer) => {
    expect(fieldPointer(ajvError)).toBe(pointer);
  });

  it.each<[string, string | null]>([
    ["/title", null],
    ["/title/nl", "nl"],
    ["/title/en", "en"],
    ["/title/de", null], // not a bucket locale: no tab to mark
    ["/count", null],
    ["/rooms/3/label/en", "en"],
    ["/rooms/3/name", null],
    ["/intro/nl/heading", "nl"],
    ["/intro/en/lines/4", "en"],
    ["/nope/nl", null],
  ])("the locale of %s is %s", (pointer, locale) => {
    expect(localeOfPointer(schema, pointer)).toBe(locale);
  });
});

describe("the form post: payload → coercion → AJV → errors by field name (resolveDocument)", () => {
  const resolve = (payload: Record<string, unknown>, locale: "en" | "nl" = "en") => resolveDocument(payload, schema, validate, locale);

  it.each<[string, Record<string, unknown>, Record<string, string[]>]>([
    // Spec §5's type message ('This field is required') would be wrong under a field that shows what was typed.
    [
      "an unreadable integer stays as typed and is refused under its field",
      { title: { nl: "a", en: "b" }, count: "abc" },
      { count: ["“abc” is not a whole number"] },
    ],
    ["a decimal comma in an integer field", { title: { nl: "a", en: "b" }, count: "3,5" }, { count: ["“3,5” is not a whole number"] }],
    [
      "an unreadable number in a list row",
      { title: { nl: "a", en: "b" }, count: "1", rooms: [{ name: "a", capacity: "3,5,1" }] },
      { "rooms[0].capacity": ["“3,5,1” is not a number"] },
    ],
    ["an empty required field", { title: { nl: "a", en: "b" }, count: "" }, { count: ["This field is required"] }],
    ["a number below the minimum", { title: { nl: "a", en: "b" }, count: "0" }, { count: ["This value should be at least 1"] }],
    ["one empty locale", { title: { nl: "a", en: "" }, count: "1" }, { "title.en": ["This field is required"] }],
    [
      "a list row",
      { title: { nl: "a", en: "b" }, count: "1", rooms: [{ name: "", capacity: "3" }] },
      { "rooms[0].name": ["This field is required"] },
    ],
    [
      "a list row, second of two",
      { title: { nl: "a", en: "b" }, count: "1", rooms: [{ name: "a" }, { name: " " }] },
      { "rooms[1].name": ["This field is required"] },
    ],
    [
      "an unknown field is also a form error, since no field shows it",
      { title: { nl: "a", en: "b" }, count: "1", stray: "x" },
      { stray: ["Unknown field: stray"], "": ["Unknown field: stray"] },
    ],
    [
      "an unknown locale is also a form error",
      { title: { nl: "a", en: "b", de: "c" }, count: "1" },
      { "title.de": ["Unknown field: de"], "": ["Unknown field: de"] },
    ],
  ])("%s", (_case, payload, error) => {
    expect(resolve(payload)).toEqual({ error });
  });

  it("accepts a valid post, typed by the schema, without the bookkeeping fields", () => {
    expect(
      resolve({ title: { nl: "a", en: "b" }, count: "3", price: "2,5", at: "10:30", [CONTENT_ID_FIELD]: "x", [BASE_VERSION_FIELD]: "y" }),
    ).toEqual({
      value: { title: { nl: "a", en: "b" }, count: 3, price: 2.5, at: "10:30:00" },
    });
  });

  it("answers in Dutch when that is the configured default locale", () => {
    expect(resolve({ title: { nl: "a", en: "b" }, count: "0" }, "nl")).toEqual({ error: { count: ["Deze waarde moet minstens 1 zijn"] } });
  });

  it.each<[string, boolean]>([
    ["title", true],
    ["title.nl", true],
    ["title.de", false],
    ["rooms[0].label.en", true],
    ["rooms[0].extra", false],
    ["intro.en.lines[2]", true],
    ["stray", false],
  ])("%s is a field the form renders: %s", (name, rendered) => {
    expect(isSchemaField(schema, name)).toBe(rendered);
  });

  // A required translated property left empty in every locale is missing as a whole; its error is shown under
  // each locale's input, so every locale tab shows it (app/lib/schema/errors.ts expandMissingTranslation).
  it("a required translated field left empty in every locale is required in each locale", () => {
    const result = resolve({ title: { nl: "", en: "" }, count: "1" });
    expect(result.error).toEqual({ "title.nl": ["This field is required"], "title.en": ["This field is required"] });
  });

  // An empty row before a filled one stays in place (as an empty item), so no row's errors move to another row;
  // the empty row itself is flagged where it is. Trailing empty rows are spare rows and are dropped.
  it.each<[string, Record<string, unknown>, string[]]>([
    [
      "a text list with an empty first entry",
      { title: { nl: "a", en: "b" }, count: "1", intro: { nl: { heading: "h", lines: ["", "abc"] } } },
      ["intro.nl.lines[1]"],
    ],
    [
      "a list of rows with an empty first row",
      { title: { nl: "a", en: "b" }, count: "1", rooms: [{ name: "" }, { name: "", capacity: "3" }] },
      ["rooms[0].name", "rooms[1].name"],
    ],
    [
      "a list of rows ending in empty rows",
      { title: { nl: "a", en: "b" }, count: "1", rooms: [{ name: "", capacity: "3" }, { name: "" }, { name: "" }] },
      ["rooms[0].name"],
    ],
  ])("an empty list entry does not move the errors of the rows after it (%s)", (_case, payload, fields) => {
    expect(Object.keys(resolve(payload).error ?? {}).sort()).toEqual(fields);
  });
});

describe("an all-digit property name ('2024') is a property, not a list index, both ways", () => {
  // Conform names such a field `years.2024` and reads it back as the key "2024"; only brackets make an index.
  const compiledDigits = compileBucketSchema({
    jsonSchema: {
      type: "object",
      properties: {
        years: {
          type: "object",
          required: ["2025"],
          properties: { "2024": { type: "integer", maximum: 10 }, "2025": { type: "string", maxLength: 1 } },
        },
        "1999": { type: "string", maxLength: 1 },
        grid: { type: "array", items: { type: "array", items: { type: "object", properties: { "7": { type: "string", maxLength: 1 } } } } },
        editions: { type: "array", items: { type: "object", properties: { "2024": { type: "string", translate: true, maxLength: 1 } } } },
      },
    },
    locales: LOCALES,
  });
  const digits = compiledDigits.schema;
  const check = compiledDigits.validate!;
  const VALID_DIGITS = { years: { "2025": "a" } };

  it("compiles", () => {
    expect(compiledDigits.problems).toEqual([]);
    expect(check(VALID_DIGITS)).toBe(true);
  });

  it.each<[string, string]>([
    ["/years/2024", "years.2024"],
    ["/1999", "1999"],
    ["/grid/0/1/7", "grid[0][1].7"],
    ["/editions/3/2024/nl", "editions[3].2024.nl"],
    ["/years/2026", "years.2026"], // not declared, but years is an object
    ["/grid/0/1/7/8", "grid[0][1].7[8]"], // past the schema: digits read as an index
  ])("%j → %j", (pointer, name) => {
    expect(pointerToName(pointer, digits)).toBe(name);
  });

  it.each<[string, Array<string | number>]>([
    ["years.2024", ["years", "2024"]],
    ["1999", ["1999"]],
    ["grid[0][1].7", ["grid", 0, 1, "7"]],
    ["editions[3].2024.nl", ["editions", 3, "2024", "nl"]],
  ])("%j → %j", (name, segments) => {
    expect(nameToSegments(name)).toEqual(segments);
  });

  it.each<[string, Record<string, unknown>, string, string[]]>([
    ["maxLength", { years: { "2025": "a", "2024": 11 } }, "years.2024", []],
    ["a top-level all-digit name", { ...VALID_DIGITS, "1999": "xx" }, "1999", []],
    ["required", { years: {} }, "years.2025", []],
    ["additionalProperties", { years: { "2025": "a", "2026": "x" } }, "years.2026", []],
    ["in a list of lists", { ...VALID_DIGITS, grid: [[{}, { "7": "xx" }]] }, "grid[0][1].7", []],
    [
      "a translated all-digit property in a list row",
      { ...VALID_DIGITS, editions: [{ "2024": { nl: "xx", en: "y" } }] },
      "editions[0].2024.nl",
      ["nl"],
    ],
  ])("%s: the error is under its field", (_case, data, field, locales) => {
    expect(check(data)).toBe(false);
    const mapped = mapValidationErrors(check.errors, digits, "en");
    expect(Object.keys(mapped.byField)).toEqual([field]);
    expect(mapped.locales).toEqual(locales);
  });

  // The action's path: the form's FormData, read by Conform, coerced, validated, errors named as the form names them.
  const post = (entries: Array<[string, string]>) => {
    const formData = new FormData();
    for (const [name, value] of entries) formData.append(name, value);
    return parse(formData, { resolve: (payload) => resolveDocument(payload, digits, check, "en") });
  };

  it("a valid post keeps '2024' as a property and coerces it by its schema", () => {
    const submission = post([
      ["years.2024", "7"],
      ["years.2025", "a"],
      ["1999", "b"],
      ["grid[0][0].7", "c"],
      ["editions[0].2024.nl", "d"],
      ["editions[0].2024.en", "e"],
    ]);
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value).toEqual({
      years: { "2024": 7, "2025": "a" },
      "1999": "b",
      grid: [[{ "7": "c" }]],
      editions: [{ "2024": { nl: "d", en: "e" } }],
    });
  });

  it("an invalid post answers under the field names the form renders, not as form errors", () => {
    const submission = post([
      ["years.2024", "11"],
      ["years.2025", "a"],
      ["1999", "bb"],
      ["grid[0][0].7", "cc"],
      ["editions[0].2024.nl", "dd"],
    ]);
    expect(submission.status).toBe("error");
    expect(submission.status !== "success" && submission.error).toEqual({
      "years.2024": ["This value can't be more than 10"],
      "1999": ["This text can't be longer than 1 characters"],
      "grid[0][0].7": ["This text can't be longer than 1 characters"],
      "editions[0].2024.nl": ["This text can't be longer than 1 characters"],
    });
    for (const name of ["years.2024", "1999", "grid[0][0].7", "editions[0].2024.nl"]) expect(isSchemaField(digits, name)).toBe(true);
  });
});
