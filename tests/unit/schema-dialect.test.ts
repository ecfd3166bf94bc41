import { describe, expect, it } from "vitest";
import { translateMessage } from "@core/messages";
import { checkSchemaDialect } from "@core/schema/dialect";
import { jsonErrorOffset, parseJsonText } from "@core/schema/json-text";
import { INTEGER_STEP_ERROR, NESTED_TRANSLATE_ERROR } from "@core/schema/normalize";
import { parseLocaleList, bucketFormSchema } from "@core/content/bucket-definition";

/* The schema editor's shared checks (core/schema/json-text.ts, core/schema/dialect.ts), as server and browser run them. */

describe("parseJsonText: a syntax error names its line and column", () => {
  it.each<[string, string]>([
    ['{"a": 1,}', "JSON error at line 1, column 9: unexpected }"],
    ['{\n  "a": tru\n}', "JSON error at line 2, column 11: unexpected \n".replace("\n", "\\n")],
    ["[1, 2", "JSON error at line 1, column 6: the text ends too early"],
    ["", "JSON error at line 1, column 1: the text ends too early"],
    ['{"a": "line\nbreak"}', "JSON error at line 1, column 12: unexpected \\n"],
    ['{"a": 01}', "JSON error at line 1, column 8: unexpected 1"],
    ["{'a': 1}", "JSON error at line 1, column 2: unexpected '"],
    ['{"a": 1} x', "JSON error at line 1, column 10: unexpected x"],
    ['{"a": "\\x"}', "JSON error at line 1, column 9: unexpected x"],
  ])("%j", (text, message) => {
    const result = parseJsonText(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(translateMessage("en", result.error)).toBe(message);
  });

  it("agrees with JSON.parse on what is JSON", () => {
    for (const text of ['{"a": [1, -2.5e3, true, false, null, "\\u00e9\\n"]}', "  42 ", '"x"', "[]", "{}"]) {
      expect(jsonErrorOffset(text)).toBeNull();
      expect(parseJsonText(text)).toEqual({ ok: true, value: JSON.parse(text) as unknown });
    }
  });

  it("speaks Dutch too", () => {
    const result = parseJsonText("[1,");
    if (result.ok) throw new Error("parsed");
    expect(translateMessage("nl", result.error)).toBe("JSON-fout op regel 1, kolom 4: de tekst houdt te vroeg op");
  });
});

describe("checkSchemaDialect", () => {
  const options = { locales: ["nl", "en"], collections: ["artists"] };
  const check = (schema: unknown, extra: Partial<typeof options> = {}) =>
    checkSchemaDialect(schema, { ...options, ...extra }).map((message) => translateMessage("en", message));
  const root = (properties: Record<string, unknown>) => ({ type: "object", properties });

  it("accepts the documented dialect", () => {
    expect(
      check({
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        required: ["name"],
        properties: {
          name: {
            type: "string",
            title: "Name",
            translate: true,
            isNotEmpty: true,
            maxLength: 80,
            placeholder: "Full name",
            note: "n",
            description: "d",
          },
          count: { type: "integer", step: 5, minimum: 0, maximum: 10 },
          price: { type: "number", step: 0.5 },
          rooms: {
            type: "array",
            minItems: 1,
            maxItems: 5,
            sortable: true,
            "add-button": "Add room",
            "append-index-to-title": true,
            "title-key": "name",
            items: { type: "object", properties: { name: { type: "string" } } },
          },
          fixed: { type: "array", fixed: true, fixedItems: 3, items: { type: "string" } },
          pick: { type: "string", enum: { $data: "1/rooms" } },
          pick2: { type: "string", enum: { _data: "1/rooms" } },
          artist: { type: "string", _ref: "artists", renderer: "popup", "button-text": "Choose" },
          maker: { type: "string", _ref: "artists", renderer: "inline" },
          artists: { type: "array", items: { type: "string", _ref: "artists" } },
          photo: {
            type: "string",
            _ref: "b-image",
            enableCrop: true,
            forceCrop: false,
            minWidth: "HD",
            maxWidth: "3840x2160",
            minWidthCrop: 100,
            maxWidthCrop: 4000,
          },
          film: { type: "string", _ref: "b-video", codec: "h264", minFps: 24, maxFps: 30, allowCustomStill: true },
          leaflet: { type: "string", _ref: "b-file", allowedFiles: "pdf, .docx", minFilesize: 2048, maxFilesize: 10_000_000 },
          shown: { type: "object", "x-disableable-bool": true, enableButton: "Show", disableButton: "Hide" },
          group: { type: "object", "x-indent": true, "x-clearable": true, "x-collapsible": true, properties: { a: { type: "boolean" } } },
          texts: { type: "array", renderer: "texts" },
          tags: { type: "array", renderer: "tags", items: { type: "string" } },
          code: { type: "string", key: "code", pattern: "^[A-Z]+$", format: "color" },
        },
      }),
    ).toEqual([]);
  });

  it("names the property path of each problem", () => {
    expect(
      check(root({ rooms: { type: "array", items: { type: "object", properties: { photo: { type: "string", oneOf: [] } } } } })),
    ).toEqual(["properties.rooms.items.properties.photo: the keyword oneOf is not supported: the form can't render it"]);
  });

  it.each<[string, unknown, string]>([
    ["unknown keyword", root({ a: { type: "string", widget: "x" } }), "properties.a: unknown keyword widget"],
    ["anyOf", root({ a: { anyOf: [] } }), "properties.a: the keyword anyOf is not supported: the form can't render it"],
    ["$ref", root({ a: { $ref: "#/definitions/a" } }), 'The keyword $ref is not supported: inline the definition "a" where it is used.'],
    [
      "patternProperties",
      { type: "object", patternProperties: {} },
      "the schema: the keyword patternProperties is not supported: the form can't render it",
    ],
    ["a list of types", root({ a: { type: ["string", "null"] } }), "properties.a: a list of types is not supported: give one type"],
    [
      "unknown renderer",
      root({ a: { type: "string", renderer: "rich" } }),
      "properties.a: unknown renderer rich (use one of textarea, tags, texts, translate-object, popup, inline, video-cases, trend-select)",
    ],
    [
      "unknown format",
      root({ a: { type: "string", format: "datetime" } }),
      "properties.a: unknown format datetime (use one of date, time, color, email, uri)",
    ],
    [
      "unknown collection",
      root({ a: { type: "string", _ref: "nobody" } }),
      "properties.a: _ref names the collection nobody, which no bucket has",
    ],
    [
      "unknown media kind",
      root({ a: { type: "string", _ref: "b-sound" } }),
      "properties.a: unknown media kind b-sound (use one of b-image, b-video, b-file)",
    ],
    [
      "min above max",
      root({ a: { type: "string", _ref: "b-video", minFps: 60, maxFps: 30 } }),
      "properties.a: minFps is greater than maxFps",
    ],
    [
      "named min above max",
      root({ a: { type: "string", _ref: "b-image", minWidth: "4K", maxWidth: "HD" } }),
      "properties.a: minWidth is greater than maxWidth",
    ],
    [
      "bad dimension",
      root({ a: { type: "string", _ref: "b-image", maxHeight: true } }),
      "properties.a: maxHeight must be a number of pixels, a named resolution (HD, 4K, 720p, SD, VGA, NTSC, PAL) or WxH, not true",
    ],
    [
      "media bound on text",
      root({ a: { type: "string", maxWidth: 100 } }),
      "properties.a: maxWidth only applies to image, video and file fields (_ref b-image, b-video or b-file)",
    ],
    ["integer step", root({ a: { type: "integer", step: 0.1 } }), `properties.a: ${INTEGER_STEP_ERROR}`],
    [
      "nested translate",
      root({ a: { type: "object", translate: true, properties: { b: { type: "string", translate: true } } } }),
      `properties.a.properties.b: ${NESTED_TRANSLATE_ERROR}`,
    ],
    [
      "min above max length",
      root({ a: { type: "string", minLength: 5, maxLength: 2 } }),
      "properties.a: minLength is greater than maxLength",
    ],
    ["non-numeric maximum", root({ a: { type: "number", maximum: "10" } }), "properties.a: maximum must be a number"],
    ["bad pattern", root({ a: { type: "string", pattern: "([a-z" } }), "properties.a: the pattern ([a-z is not a valid regular expression"],
    ["tuple items", root({ a: { type: "array", items: [{ type: "string" }] } }), "properties.a: items must be one schema, not a list"],
    [
      "hostile name",
      { type: "object", properties: JSON.parse('{"__proto__": {"type": "string"}}') as unknown },
      "properties.__proto__: the property name __proto__ is not allowed",
    ],
    ["root not an object schema", { type: "array" }, "the schema: the schema must have type object"],
    [
      "popup without a reference",
      root({ a: { type: "string", renderer: "popup" } }),
      "properties.a: the popup renderer needs a _ref to a collection",
    ],
    [
      "an inline sub-form inside an object",
      root({ a: { type: "object", properties: { room: { type: "string", _ref: "rooms", renderer: "inline" } } } }),
      "properties.a.properties.room: an inline sub-form (renderer inline with a _ref) can only be a property of the document itself, not inside an object or list",
    ],
    [
      "an inline sub-form in a list",
      root({ a: { type: "array", items: { type: "string", _ref: "rooms", renderer: "inline" } } }),
      "properties.a.items: an inline sub-form (renderer inline with a _ref) can only be a property of the document itself, not inside an object or list",
    ],
    [
      "the sub-forms' reserved name",
      root({ __subforms: { type: "string" } }),
      "properties.__subforms: the property name __subforms is not allowed",
    ],
  ])("refuses %s", (_label, schema, message) => {
    expect(check(schema)).toContain(message);
  });

  it("names an unknown renderer once, also on a property whose type alone would render (no 'no field' besides)", () => {
    expect(check(root({ a: { type: "string", renderer: "does-not-exist" } }))).toEqual([
      "properties.a: unknown renderer does-not-exist (use one of textarea, tags, texts, translate-object, popup, inline, video-cases, trend-select)",
    ]);
  });

  it("the spec's wording of the integer step error is kept (normalisation and the check share it)", () => {
    expect(INTEGER_STEP_ERROR).toBe("schema error: property with type 'integer' can't have a step value smaller than 1");
  });

  it("reports what AJV cannot compile instead of throwing, unless told not to compile (the browser)", () => {
    const schema = root({ a: { type: "string", enum: { $data: "no pointer" } } });
    expect(check(schema)[0]).toMatch(/^the schema: the validator can't compile this schema: /);
    expect(checkSchemaDialect(schema, { ...options, compile: false })).toEqual([]);
  });

  it("refuses an inline sub-form of a collection it cannot render, when the server knows which", () => {
    const schema = root({ artist: { type: "string", _ref: "artists", renderer: "inline" } });
    expect(check(schema)).toEqual([]);
    expect(
      checkSchemaDialect(schema, { ...options, inlineRefused: { artists: "media" } }).map((message) => translateMessage("en", message)),
    ).toEqual(["properties.artist: the documents of artists have media fields, which an inline sub-form can't hold: use renderer popup"]);
    expect(
      checkSchemaDialect(schema, { ...options, inlineRefused: { artists: "nested" } }).map((message) => translateMessage("nl", message)),
    ).toEqual([
      "properties.artist: de documenten van artists hebben zelf inline subformulieren: een inline subformulier kan geen ander bevatten",
    ]);
  });

  it("does not check collections it does not know (null)", () => {
    expect(checkSchemaDialect(root({ a: { type: "string", _ref: "anything" } }), { locales: ["en"], collections: null })).toEqual([]);
  });
});

describe("the bucket form's fixed fields", () => {
  it("reads locales in order, separated by commas or spaces", () => {
    expect(parseLocaleList(" nl, en  fr-BE;de ")).toEqual(["nl", "en", "fr-BE", "de"]);
  });

  it("refuses reserved and malformed slugs", () => {
    const base = { name: "x", collectionName: "x", locales: "en", jsonSchema: "{}" };
    for (const slug of ["new", "import", "Upper", "with space", "-edge", "a--b"]) {
      expect(bucketFormSchema.safeParse({ ...base, slug }).success, slug).toBe(false);
    }
    expect(bucketFormSchema.safeParse({ ...base, slug: "east-wing-2" }).success).toBe(true);
  });
});
