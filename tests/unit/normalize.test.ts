import { describe, expect, it } from "vitest";
import { FIELD_KINDS, fieldKind, type FieldKind } from "@core/form/field-kind";
import { initialValue } from "@core/form/kinds";
import { documentTitle, titleProperty } from "@core/content/title";
import { createAjv } from "@core/schema/ajv";
import { normalizeSchema, type JsonSchema } from "@core/schema/normalize";
import { compileBucketSchema } from "@server/content/validator";

/*
 * Spec §3 (jsonSchema: translate, _data, renderer) and §5 (integer step) as tables.
 * The spec's wording is written out here, not imported, so a change of wording fails.
 */
const SPEC_INTEGER_STEP_ERROR = "schema error: property with type 'integer' can't have a step value smaller than 1";
const NESTED_TRANSLATE = /^schema error: .*translatable.*translatable/;

const root = (properties: JsonSchema, extra: JsonSchema = {}) => ({ type: "object", properties, ...extra });
/** The value at `path`, undefined where there is none. */
const at = (node: unknown, path: readonly (string | number)[]): unknown =>
  path.reduce<unknown>(
    (current, key) => (current === undefined || current === null ? undefined : (current as Record<string | number, unknown>)[key]),
    node,
  );

/** The schema node at `path`; the test fails here when there is none. */
function nodeAt(node: unknown, path: readonly (string | number)[]): JsonSchema {
  const found = at(node, path);
  if (typeof found !== "object" || found === null) throw new Error(`no schema node at ${path.join(".")}`);
  return found as JsonSchema;
}

/** Every key used anywhere in a schema, except the names inside `properties` maps. */
function keywords(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => keywords(item, out));
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      out.add(key);
      if (key === "properties" && value && typeof value === "object") Object.values(value).forEach((child) => keywords(child, out));
      else keywords(value, out);
    }
  }
  return out;
}

describe("translate: true expands into one sub-property per bucket locale (spec §3)", () => {
  it.each([[["nl", "en"]], [["en", "nl"]], [["de", "nl", "en", "fr"]], [["nl"]]])(
    "locales %j: one sub-property each, in the bucket's order",
    (locales) => {
      const { schema, problems } = normalizeSchema(root({ title: { type: "string", translate: true } }), locales);
      expect(problems).toEqual([]);
      const title = nodeAt(schema, ["properties", "title"]);
      expect(title.type).toBe("object");
      expect(title.renderer).toBe("translate-object");
      expect(Object.keys(nodeAt(title, ["properties"]))).toEqual(locales);
      for (const locale of locales) expect(at(title, ["properties", locale])).toEqual({ type: "string", title: locale });
      // An unknown locale is refused like any unknown property.
      expect(title.additionalProperties).toBe(false);
    },
  );

  it.each([
    [
      "top level, required",
      root({ title: { type: "string", translate: true } }, { required: ["title"] }),
      ["properties", "title"],
      ["nl", "en"],
    ],
    ["top level, optional", root({ title: { type: "string", translate: true } }, { required: [] }), ["properties", "title"], []],
    ["top level, no required list", root({ title: { type: "string", translate: true } }), ["properties", "title"], []],
    [
      "required only for a sibling",
      root({ title: { type: "string", translate: true }, code: { type: "string" } }, { required: ["code"] }),
      ["properties", "title"],
      [],
    ],
    [
      "in a nested object, required there",
      root({ intro: { type: "object", required: ["heading"], properties: { heading: { type: "string", translate: true } } } }),
      ["properties", "intro", "properties", "heading"],
      ["nl", "en"],
    ],
    [
      "in a nested object, required only at the top",
      root(
        { heading: { type: "string" }, intro: { type: "object", properties: { heading: { type: "string", translate: true } } } },
        { required: ["heading"] },
      ),
      ["properties", "intro", "properties", "heading"],
      [],
    ],
    [
      "in list rows, required in the row",
      root({
        rooms: {
          type: "array",
          items: { type: "object", required: ["label"], properties: { label: { type: "string", translate: true } } },
        },
      }),
      ["properties", "rooms", "items", "properties", "label"],
      ["nl", "en"],
    ],
  ])("%s → required locales %j", (_case, raw, path, required) => {
    const { schema, problems } = normalizeSchema(raw, ["nl", "en"]);
    expect(problems).toEqual([]);
    expect(nodeAt(schema, path).required).toEqual(required);
  });

  it.each([
    ["maxLength", { type: "string", maxLength: 10 }, { maxLength: 10 }],
    ["isNotEmpty", { type: "string", isNotEmpty: true }, { isNotEmpty: true }],
    ["renderer textarea", { type: "string", renderer: "textarea" }, { renderer: "textarea" }],
    ["placeholder", { type: "string", placeholder: "Type…" }, { placeholder: "Type…" }],
    ["format", { type: "string", format: "date" }, { format: "date" }],
    [
      "an object's properties",
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
    ],
  ])("each locale keeps the property's %s", (_what, property, expected) => {
    const { schema } = normalizeSchema(root({ p: { ...property, translate: true } }), ["nl", "en"]);
    for (const locale of ["nl", "en"]) {
      const perLocale = nodeAt(schema, ["properties", "p", "properties", locale]);
      expect(perLocale).toMatchObject(expected);
      expect(perLocale.title).toBe(locale);
      expect(perLocale.translate).toBeUndefined();
    }
  });

  it.each([["title"], ["description"], ["note"]])("%s stays on the translated property, not on each locale", (attribute) => {
    const { schema } = normalizeSchema(root({ p: { type: "string", translate: true, [attribute]: "Text" } }), ["nl", "en"]);
    const p = nodeAt(schema, ["properties", "p"]);
    expect(p[attribute]).toBe("Text");
    if (attribute !== "title") expect(at(p, ["properties", "nl", attribute])).toBeUndefined();
    else expect(at(p, ["properties", "nl", "title"])).toBe("nl");
  });

  it("validates each locale with the property's own rules", () => {
    const { schema } = normalizeSchema(root({ title: { type: "string", translate: true, maxLength: 3 } }, { required: ["title"] }), [
      "nl",
      "en",
    ]);
    const validate = createAjv().compile(schema);
    expect(validate({ title: { nl: "abc", en: "xyz" } })).toBe(true);
    expect(validate({ title: { nl: "abcd", en: "x" } })).toBe(false);
    expect(validate({ title: { nl: "abc" } })).toBe(false); // every locale is required
    expect(validate({ title: { nl: "a", en: "b", de: "c" } })).toBe(false); // no locale outside the bucket's
  });
});

describe("a translatable property inside a translatable one is a schema error (spec §3)", () => {
  it.each([
    ["directly", root({ a: { type: "object", translate: true, properties: { b: { type: "string", translate: true } } } }), 1],
    [
      "two levels down",
      root({
        a: {
          type: "object",
          translate: true,
          properties: { x: { type: "object", properties: { b: { type: "string", translate: true } } } },
        },
      }),
      1,
    ],
    ["in list rows of a translatable list", root({ a: { type: "array", translate: true, items: { type: "string", translate: true } } }), 1],
    [
      "in rows of objects of a translatable list",
      root({ a: { type: "array", translate: true, items: { type: "object", properties: { b: { type: "string", translate: true } } } } }),
      1,
    ],
    [
      "twice",
      root({
        a: {
          type: "object",
          translate: true,
          properties: { b: { type: "string", translate: true }, c: { type: "string", translate: true } },
        },
      }),
      2,
    ],
  ])("%s → %s schema error(s)", (_where, raw, count) => {
    const { problems } = normalizeSchema(raw, ["nl", "en"]);
    expect(problems).toHaveLength(count);
    for (const problem of problems) expect(problem).toMatch(NESTED_TRANSLATE);
  });

  it.each([
    ["siblings", root({ a: { type: "string", translate: true }, b: { type: "string", translate: true } })],
    [
      "in list rows of a plain list",
      root({ a: { type: "array", items: { type: "object", properties: { b: { type: "string", translate: true } } } } }),
    ],
    ["in a plain object", root({ a: { type: "object", properties: { b: { type: "string", translate: true } } } })],
    [
      "translate: false inside translatable",
      root({ a: { type: "object", translate: true, properties: { b: { type: "string", translate: false } } } }),
    ],
  ])("%s → no schema error", (_where, raw) => {
    expect(normalizeSchema(raw, ["nl", "en"]).problems).toEqual([]);
  });

  it("a bucket with that error gets no validator, and the problem says why", () => {
    const compiled = compileBucketSchema({
      jsonSchema: root({ a: { type: "object", translate: true, properties: { b: { type: "string", translate: true } } } }),
      locales: ["nl", "en"],
    });
    expect(compiled.validate).toBeNull();
    expect(compiled.problems.join("\n")).toMatch(NESTED_TRANSLATE);
  });
});

describe("_data becomes $data at any depth (spec §3)", () => {
  it.each([
    ["a property's enum", root({ pick: { type: "string", enum: { _data: "1/list" } } }), ["properties", "pick", "enum"]],
    [
      "a nested object",
      root({
        a: { type: "object", properties: { b: { type: "object", properties: { pick: { type: "string", enum: { _data: "2/list" } } } } } },
      }),
      ["properties", "a", "properties", "b", "properties", "pick", "enum"],
    ],
    [
      "list rows",
      root({ rows: { type: "array", items: { type: "object", properties: { pick: { enum: { _data: "3/list" } } } } } }),
      ["properties", "rows", "items", "properties", "pick", "enum"],
    ],
    [
      "rows of rows",
      root({ rows: { type: "array", items: { type: "array", items: { type: "string", enum: { _data: "3/list" } } } } }),
      ["properties", "rows", "items", "items", "enum"],
    ],
    [
      "an allOf entry",
      root({ n: { allOf: [{ type: "number" }, { maximum: { _data: "1/max" } }] } }),
      ["properties", "n", "allOf", 1, "maximum"],
    ],
    [
      "definitions",
      { type: "object", definitions: { pick: { enum: { _data: "1/list" } } }, properties: {} },
      ["definitions", "pick", "enum"],
    ],
    ["a keyword other than enum", root({ n: { type: "number", minimum: { _data: "1/min" } } }), ["properties", "n", "minimum"]],
    [
      "a translated property (each locale)",
      root({ t: { type: "string", translate: true, const: { _data: "1/x" } } }),
      ["properties", "t", "properties", "en", "const"],
    ],
  ])("in %s", (_where, raw, path) => {
    const { schema, problems } = normalizeSchema(raw, ["nl", "en"]);
    expect(problems).toEqual([]);
    const node = nodeAt(schema, path);
    expect(Object.keys(node)).toEqual(["$data"]);
    expect(typeof node.$data).toBe("string");
    expect(keywords(schema).has("_data")).toBe(false);
  });

  it.each([
    ["properties", root({ _data: { type: "string" } }), ["properties", "_data"]],
    ["definitions", { type: "object", definitions: { _data: { type: "string" } }, properties: {} }, ["definitions", "_data"]],
  ])("a name called _data in %s stays a name", (_where, raw, path) => {
    expect(at(normalizeSchema(raw, ["en"]).schema, path)).toEqual({ type: "string" });
  });

  it("the renamed pointer works in AJV: the options come from the document", () => {
    const { schema } = normalizeSchema(
      root({
        list: { type: "array", items: { type: "string" } },
        rows: { type: "array", items: { type: "object", properties: { pick: { type: "string", enum: { _data: "3/list" } } } } },
      }),
      ["en"],
    );
    const validate = createAjv().compile(schema);
    expect(validate({ list: ["a", "b"], rows: [{ pick: "b" }] })).toBe(true);
    expect(validate({ list: ["a", "b"], rows: [{ pick: "c" }] })).toBe(false);
    expect(validate.errors?.map((error) => [error.keyword, error.instancePath])).toEqual([["enum", "/rows/0/pick"]]);
  });
});

describe("integer step below 1 is the spec's schema error (spec §5)", () => {
  it.each([
    [{ type: "integer", step: 0.5 }, "/n", true],
    [{ type: "integer", step: 0.99 }, "/n", true],
    [{ type: "integer", step: 0.1 }, "/n", true],
    [{ type: "integer", step: 0 }, "/n", true],
    [{ type: "integer", step: -1 }, "/n", true],
    [{ type: "integer", step: 1 }, "/n", false],
    [{ type: "integer", step: 5 }, "/n", false],
    [{ type: "integer" }, "/n", false],
    [{ type: "number", step: 0.5 }, "/n", false],
    [{ type: "number", step: 0.001 }, "/n", false],
  ])("%j → error: %s %s", (property, path, error) => {
    const { problems } = normalizeSchema(root({ n: property }), ["en"]);
    expect(problems).toEqual(error ? [`${SPEC_INTEGER_STEP_ERROR} (${path})`] : []);
  });

  it.each([
    ["a nested object", root({ a: { type: "object", properties: { n: { type: "integer", step: 0.5 } } } }), "/a/n"],
    ["list rows", root({ rows: { type: "array", items: { type: "integer", step: 0.5 } } }), "/rows/items"],
    [
      "rows of objects",
      root({ rows: { type: "array", items: { type: "object", properties: { n: { type: "integer", step: 0.25 } } } } }),
      "/rows/items/n",
    ],
    ["a translated property", root({ n: { type: "integer", step: 0.5, translate: true } }), "/n"],
  ])("is found in %s and names where", (_where, raw, path) => {
    expect(normalizeSchema(raw, ["nl", "en"]).problems).toEqual([`${SPEC_INTEGER_STEP_ERROR} (${path})`]);
  });

  it("each offending property is reported once", () => {
    const { problems } = normalizeSchema(
      root({ a: { type: "integer", step: 0.5 }, b: { type: "integer", step: 2 }, c: { type: "integer", step: 0.1 } }),
      ["en"],
    );
    expect(problems).toEqual([`${SPEC_INTEGER_STEP_ERROR} (/a)`, `${SPEC_INTEGER_STEP_ERROR} (/c)`]);
  });

  it("a bucket with that error gets no validator", () => {
    const compiled = compileBucketSchema({ jsonSchema: root({ n: { type: "integer", step: 0.5 } }), locales: ["en"] });
    expect(compiled.validate).toBeNull();
    expect(compiled.problems).toEqual([`${SPEC_INTEGER_STEP_ERROR} (/n)`]);
  });
});

describe("other normalisation", () => {
  it.each([
    ["an object with properties", root({ a: { type: "object", properties: {} } }), ["properties", "a", "additionalProperties"], false],
    ["the root", root({}), ["additionalProperties"], false],
    [
      "explicitly allowed",
      root({ a: { type: "object", properties: {}, additionalProperties: true } }),
      ["properties", "a", "additionalProperties"],
      true,
    ],
    ["an object without properties", root({ a: { type: "object" } }), ["properties", "a", "additionalProperties"], undefined],
  ])("unknown properties in %s: additionalProperties %s", (_where, raw, path, expected) => {
    expect(at(normalizeSchema(raw, ["en"]).schema, path)).toBe(expected);
  });

  it.each([
    ["null", null],
    ["a string", "schema"],
    ["a list", [{ type: "object" }]],
  ])("a schema that is %s is a schema error, not a crash", (_what, raw) => {
    const { schema, problems } = normalizeSchema(raw, ["en"]);
    expect(problems).toEqual(["schema error: the schema must be an object"]);
    expect(schema).toEqual({ type: "object", properties: {} });
  });

  it("texts arrays get rows {id, text per bucket locale}", () => {
    const { schema } = normalizeSchema(root({ lines: { type: "array", renderer: "texts" } }), ["nl", "en"]);
    const items = nodeAt(schema, ["properties", "lines", "items"]);
    expect(items.required).toEqual(["id"]);
    expect(Object.keys(nodeAt(items, ["properties", "text", "properties"]))).toEqual(["nl", "en"]);
    const validate = createAjv().compile(schema);
    expect(validate({ lines: [{ id: "a", text: { nl: "x", en: "y" } }] })).toBe(true);
    expect(validate({ lines: [{ text: { nl: "x" } }] })).toBe(false);
  });

  it("a disableable string becomes {value, disabled}", () => {
    const { schema } = normalizeSchema(root({ d: { type: "object", "x-disableable-bool": true } }), ["en"]);
    expect(at(schema, ["properties", "d"])).toMatchObject({
      properties: { value: { type: "string" }, disabled: { type: "boolean" } },
      additionalProperties: false,
    });
  });
});

/** One example of every field kind, raw as a bucket stores it; the kind is read after normalisation. */
const KIND_TABLE: Array<[string, JsonSchema, FieldKind | null]> = [
  ["type string", { type: "string" }, "text"],
  ["renderer textarea", { type: "string", renderer: "textarea" }, "textarea"],
  ["type number", { type: "number" }, "number"],
  ["type integer", { type: "integer" }, "integer"],
  ["type boolean", { type: "boolean" }, "boolean"],
  ["format date", { type: "string", format: "date" }, "date"],
  ["format time", { type: "string", format: "time" }, "time"],
  ["format color", { type: "string", format: "color" }, "color"],
  ["enum list", { type: "string", enum: ["a", "b"] }, "enum"],
  ["enum _data", { type: "string", enum: { _data: "1/list" } }, "enumData"],
  ["renderer tags", { type: "array", renderer: "tags", items: { type: "string" } }, "tags"],
  ["type array", { type: "array", items: { type: "string" } }, "array"],
  ["type object", { type: "object", properties: { a: { type: "string" } } }, "object"],
  ["translate: true", { type: "string", translate: true }, "translateObject"],
  ["renderer texts", { type: "array", renderer: "texts" }, "texts"],
  ["x-disableable-bool", { type: "object", "x-disableable-bool": true }, "disableable"],
  ["_ref collection", { type: "string", _ref: "artists" }, "reference"],
  ["list of _ref", { type: "array", items: { type: "string", _ref: "artists" } }, "referenceList"],
  ["renderer popup", { type: "string", _ref: "artists", renderer: "popup" }, "popup"],
  ["renderer inline with a collection _ref", { type: "string", _ref: "artists", renderer: "inline" }, "inline"],
  [
    "renderer video-cases on a list of references",
    { type: "array", items: { type: "string", _ref: "cases" }, renderer: "video-cases" },
    "videoCases",
  ],
  ["renderer trend-select on a reference", { type: "string", _ref: "trends", renderer: "trend-select" }, "trendSelect"],
  [
    "renderer trend-select on a list of references",
    { type: "array", items: { type: "string", _ref: "trends" }, renderer: "trend-select" },
    "trendList",
  ],
  ["_ref b-image", { type: "string", _ref: "b-image" }, "image"],
  ["_ref b-video", { type: "string", _ref: "b-video" }, "video"],
  ["_ref b-file", { type: "string", _ref: "b-file" }, "file"],
  // order: renderer, then _ref, then format, then enum, then type
  ["renderer before _ref", { type: "string", _ref: "artists", renderer: "textarea" }, "textarea"],
  ["renderer before format", { type: "string", format: "date", renderer: "textarea" }, "textarea"],
  ["renderer before enum", { type: "string", enum: ["a"], renderer: "textarea" }, "textarea"],
  ["_ref before format", { type: "string", _ref: "artists", format: "date" }, "reference"],
  ["media _ref before format", { type: "string", _ref: "b-image", format: "color" }, "image"],
  ["_ref before enum", { type: "string", _ref: "artists", enum: ["a"] }, "reference"],
  ["format before enum", { type: "string", format: "time", enum: ["10:00:00"] }, "time"],
  ["enum before type (integer)", { type: "integer", enum: [1, 2] }, "enum"],
  ["enum before type (number)", { type: "number", enum: { _data: "1/list" } }, "enumData"],
  ["a renderer that is an attribute, not a component", { type: "string", renderer: "inline" }, "text"],
  ["a format without its own component", { type: "string", format: "email" }, "text"],
  ["a list of media is a plain list", { type: "array", items: { type: "string", _ref: "b-image" } }, "array"],
  // unknown → null: the form says 'No component found to render …'
  ["type null", { type: "null" }, null],
  ["no type", {}, null],
  ["a list of types", { type: ["string", "null"] }, null],
  ["an unknown type", { type: "date" }, null],
  ["an unknown renderer and no type", { renderer: "wysiwyg" }, null],
  ["a non-string _ref and no type", { _ref: 5 }, null],
  // A known type does not make an unknown renderer a plain field of that type.
  ["a known type with an unknown renderer", { type: "string", renderer: "does-not-exist" }, null],
  ["a list with an unknown renderer", { type: "array", items: { type: "string" }, renderer: "chips" }, null],
  ["a renderer named like an Object member", { type: "string", renderer: "constructor" }, null],
];

describe("field kind: renderer, then _ref, then format, then enum, then type (null: unknown)", () => {
  it.each(KIND_TABLE)("%s → %s", (_case, raw, kind) => {
    const { schema, problems } = normalizeSchema(root({ field: raw }), ["nl", "en"]);
    expect(problems).toEqual([]);
    expect(fieldKind(nodeAt(schema, ["properties", "field"]))).toBe(kind);
  });

  it("the table has every kind the form knows", () => {
    const covered = new Set(KIND_TABLE.map(([, , kind]) => kind));
    expect(FIELD_KINDS.filter((kind) => !covered.has(kind))).toEqual([]);
  });
});

describe("starting values of a normalised schema (spec §3, §5)", () => {
  it.each<[string, JsonSchema, unknown]>([
    ["a text", { type: "string" }, undefined],
    ["a number", { type: "number" }, undefined],
    ["a switch", { type: "boolean" }, false],
    ["a time", { type: "string", format: "time" }, "00:00:00"],
    ["a colour (not required)", { type: "string", format: "color" }, undefined],
    ["a translated text", { type: "string", translate: true }, {}],
    ["a translated time", { type: "string", format: "time", translate: true }, { nl: "00:00:00", en: "00:00:00" }],
    ["a list", { type: "array", items: { type: "string" } }, [""]],
    ["a list with minItems 2", { type: "array", items: { type: "string" }, minItems: 2 }, ["", ""]],
    ["fixedItems over minItems", { type: "array", items: { type: "string" }, minItems: 3, fixedItems: 1 }, [""]],
    ["a reference list", { type: "array", items: { type: "string", _ref: "artists" } }, []],
    ["a reference list with minItems", { type: "array", items: { type: "string", _ref: "artists" }, minItems: 2 }, ["", ""]],
    ["a list of switches", { type: "array", items: { type: "boolean" }, minItems: 2 }, [false, false]],
    [
      "an object",
      { type: "object", properties: { on: { type: "boolean" }, at: { type: "string", format: "time" }, name: { type: "string" } } },
      { on: false, at: "00:00:00" },
    ],
  ])("%s starts as %j", (_case, raw, expected) => {
    const { schema } = normalizeSchema(root({ field: raw }), ["nl", "en"]);
    expect(initialValue(nodeAt(schema, ["properties", "field"]))).toEqual(expected);
  });
});

describe("a document's title (title-key, else the first plain string property)", () => {
  const schema = root({
    day: { type: "string", format: "date" },
    artist: { type: "string", _ref: "artists" },
    name: { type: "string", translate: true },
    code: { type: "string" },
  });
  it.each<[string, unknown, Record<string, unknown>, readonly string[], string]>([
    ["first plain string, translated, first bucket locale", schema, { name: { nl: "Naam", en: "Name" } }, ["en", "nl"], "Name"],
    ["bucket locale order decides", schema, { name: { nl: "Naam", en: "Name" } }, ["nl", "en"], "Naam"],
    ["an empty locale is skipped", schema, { name: { nl: "  ", en: "Name" } }, ["nl", "en"], "Name"],
    ["no locales: any filled one", schema, { name: { de: "Titel" } }, [], "Titel"],
    ["a plain string", root({ code: { type: "string" } }), { code: "A-1" }, [], "A-1"],
    ["title-key wins", { ...schema, "title-key": "code" }, { name: { en: "Name" }, code: "A-1" }, ["en"], "A-1"],
    ["missing value", schema, {}, ["en"], ""],
    ["no string property", root({ n: { type: "number" } }), { n: 3 }, [], ""],
  ])("%s", (_case, rawSchema, data, locales, title) => {
    expect(documentTitle(data, rawSchema, locales)).toBe(title);
  });

  it.each<[unknown, string | null]>([
    [schema, "name"],
    [{ ...schema, "title-key": "code" }, "code"],
    [root({ d: { type: "string", format: "date" }, r: { type: "string", _ref: "b-image" } }), null],
    [null, null],
  ])("title property of %j is %s", (rawSchema, key) => {
    expect(titleProperty(rawSchema)).toBe(key);
  });
});
