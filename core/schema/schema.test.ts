import { describe, expect, it } from "vitest";
import { createAjv } from "./ajv";
import { mapValidationErrors } from "./errors";
import { formatMessage } from "@core/messages";
import { catalogues } from "@core/catalogues";
import { validationMessage } from "./messages";
import { INTEGER_STEP_ERROR, NESTED_TRANSLATE_ERROR, normalizeSchema } from "./normalize";
import { acceptNumberInput, parseNumberInput, stepValue } from "./number";
import { nameToSegments, pointerToName } from "./path";

/** The schema node at `path`; the test fails here when there is none. */
function nodeAt(node: unknown, path: readonly string[]): Record<string, unknown> {
  const found = path.reduce<unknown>(
    (current, key) => (typeof current === "object" && current !== null ? (current as Record<string, unknown>)[key] : undefined),
    node,
  );
  if (typeof found !== "object" || found === null) throw new Error(`no schema node at ${path.join(".")}`);
  return found as Record<string, unknown>;
}

describe("normalizeSchema", () => {
  const raw = {
    type: "object",
    required: ["title"],
    properties: {
      title: { type: "string", title: "Title", translate: true, maxLength: 10 },
      subtitle: { type: "string", translate: true },
      kind: { type: "string", enum: { _data: "1/title" } },
    },
  };

  it("expands translate into one required sub-property per locale when the property is required", () => {
    const { schema, problems } = normalizeSchema(raw, ["nl", "en"]);
    expect(problems).toEqual([]);
    const title = nodeAt(schema, ["properties", "title"]);
    expect(title).toMatchObject({ type: "object", renderer: "translate-object", title: "Title", required: ["nl", "en"] });
    expect(nodeAt(title, ["properties", "nl"])).toMatchObject({ type: "string", maxLength: 10 });
    expect(nodeAt(title, ["properties", "en"]).translate).toBeUndefined();
    expect(nodeAt(schema, ["properties", "subtitle"]).required).toEqual([]);
  });

  it("renames _data to $data and leaves the input unchanged", () => {
    const { schema } = normalizeSchema(raw, ["en"]);
    expect(nodeAt(schema, ["properties", "kind"]).enum).toEqual({ $data: "1/title" });
    expect(raw.properties.kind.enum).toEqual({ _data: "1/title" });
  });

  it.each([
    [{ type: "object", properties: { n: { type: "integer", step: 0.5 } } }, INTEGER_STEP_ERROR],
    [
      { type: "object", properties: { a: { type: "object", translate: true, properties: { b: { type: "string", translate: true } } } } },
      NESTED_TRANSLATE_ERROR,
    ],
  ])("reports schema errors instead of crashing (%#)", (schema, message) => {
    expect(normalizeSchema(schema, ["en"]).problems.join()).toContain(message);
  });

  it("drops __proto__ keys", () => {
    const hostile = JSON.parse('{"type":"object","__proto__":{"polluted":true},"properties":{}}');
    const { schema } = normalizeSchema(hostile, ["en"]);
    expect(Object.prototype.hasOwnProperty.call(schema, "__proto__")).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("number input (spec §5)", () => {
  it.each([
    ["12", "integer", 12],
    ["-3", "integer", -3],
    ["+4", "integer", 4],
    ["1.5", "integer", "invalid"],
    ["1,5", "number", 1.5],
    ["-0.25", "number", -0.25],
    ["abc", "number", "invalid"],
    ["", "number", "empty"],
    ["1.2.3", "number", "invalid"],
  ] as const)("%s as %s → %s", (text, type, expected) => {
    const parsed = parseNumberInput(text, type);
    if (expected === "invalid" || expected === "empty") expect(parsed.kind).toBe(expected);
    else expect(parsed).toEqual({ kind: "value", value: expected });
  });

  it("reverts to the last valid value on invalid input and clears on empty", () => {
    expect(acceptNumberInput("x", "number", 3.5)).toBe(3.5);
    expect(acceptNumberInput("", "number", 3.5)).toBeUndefined();
  });

  it("steps round to the step's decimals", () => {
    expect(stepValue(0.2, 0.1, 1)).toBe(0.3);
    expect(stepValue(1, 0.05, -1)).toBe(0.95);
    expect(stepValue(undefined, 1, 1)).toBe(1);
  });
});

describe("paths", () => {
  it("maps pointers to names and back", () => {
    expect(
      pointerToName("/rooms/0/title/nl", { type: "object", properties: { rooms: { type: "array", items: { type: "object" } } } }),
    ).toBe("rooms[0].title.nl");
    expect(nameToSegments("rooms[0].title.nl")).toEqual(["rooms", 0, "title", "nl"]);
  });
});

describe("validation messages", () => {
  const { schema } = normalizeSchema(
    {
      type: "object",
      required: ["title", "rooms"],
      properties: {
        title: { type: "string", translate: true, isNotEmpty: true },
        rooms: {
          type: "array",
          minItems: 2,
          maxItems: 3,
          items: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
        },
        code: { type: "string", isNotEmpty: true },
      },
    },
    ["nl", "en"],
  );
  const validate = createAjv().compile(schema);

  it.each([
    ["en", "This field is required", "This list should have minimum 2 item(s)"],
    ["nl", "Dit is een verplicht veld", "Er moeten minstens 2 items in deze lijst zitten"],
  ] as const)("in %s, under each field, with the locale of the translatable ancestor", (locale, required, minItems) => {
    validate({ title: { nl: "   " }, rooms: [{}], code: "" });
    const { byField, locales } = mapValidationErrors(validate.errors, schema, locale);
    expect(byField["title.nl"]).toEqual([required]);
    expect(byField["title.en"]).toEqual([required]);
    expect(byField["rooms"]).toEqual([minItems]);
    expect(byField["rooms[0].name"]).toEqual([required]);
    expect(byField["code"]).toEqual([required]);
    expect(locales.sort()).toEqual(["en", "nl"]);
  });

  it("fills maxItems in both languages", () => {
    validate({ title: { nl: "a", en: "b" }, rooms: [{ name: "a" }, { name: "b" }, { name: "c" }, { name: "d" }], code: "x" });
    expect(mapValidationErrors(validate.errors, schema, "en").byField.rooms).toEqual(["This list can't contain more than 3 item(s)"]);
    expect(mapValidationErrors(validate.errors, schema, "nl").byField.rooms).toEqual(["Er mogen maximaal 3 items in deze lijst zitten"]);
  });

  it("the partial form keeps only its properties' errors", () => {
    validate({});
    expect(Object.keys(mapValidationErrors(validate.errors, schema, "en", ["rooms"]).byField)).toEqual(["rooms"]);
  });

  it("has every message in both languages", () => {
    // AJV keywords with a message of their own (spec §5); any other keyword says validation.default.
    const keywords = Object.keys(catalogues.en!.validation).filter((keyword) => keyword !== "formats");
    for (const keyword of keywords) expect(validationMessage("nl", keyword, {})).not.toBe(validationMessage("en", keyword, {}));
    expect(formatMessage("max {{limit}} {{other}}", { limit: 3 })).toBe("max 3 {{other}}");
  });
});
