import { describe, expect, it } from "vitest";
import { translateMessage } from "@core/messages";
import { checkSchemaDialect } from "@core/schema/dialect";
import { parseJsonText } from "@core/schema/json-text";
import { readSchemaText } from "@core/schema/impact";
import { MAX_SCHEMA_NESTING, nestingOffset, nestsDeeperThan } from "@core/schema/nesting";

/*
 * Issue 36, items 4 and 12c: a schema nested deeper than MAX_SCHEMA_NESTING is refused with a message naming the limit
 * before anything recurses (core/schema/nesting.ts), on the text and on a parsed value; `$ref` is refused once, naming
 * the definitions to inline (core/schema/refs.ts). The same functions run in the schema editor and on the server.
 */

/** A schema whose `default` nests `levels` lists inside its one property: levels + 3 levels in all. */
const deepDefault = (levels: number) =>
  `{"type":"object","properties":{"a":{"type":"array","default":${"[".repeat(levels)}${"]".repeat(levels)}}}}`;
/** A value nested `levels` deep: levels lists, the outermost being level 1. */
function nestedList(levels: number): unknown {
  let value: unknown[] = [];
  for (let level = 1; level < levels; level += 1) value = [value];
  return value;
}

const options = { locales: ["en"], collections: [] };
const checked = (schema: unknown, locale: "en" | "nl" = "en") =>
  checkSchemaDialect(schema, options).map((message) => translateMessage(locale, message));

describe("nesting: counted without recursion", () => {
  it("counts levels of objects and lists, not brackets inside strings", () => {
    expect(nestingOffset("{}", 1)).toBeNull();
    expect(nestingOffset('{"a":{}}', 1)).toBe(5);
    expect(nestingOffset('{"a":"[[[{{{\\"[[["}', 1)).toBeNull();
    expect(nestingOffset("[[]][[]]", 2)).toBeNull();
    expect(nestsDeeperThan(nestedList(MAX_SCHEMA_NESTING))).toBe(false);
    expect(nestsDeeperThan(nestedList(MAX_SCHEMA_NESTING + 1))).toBe(true);
    expect(nestsDeeperThan({ a: "x", b: [1, { c: null }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: "x", b: [1, { c: {} }] }, 3)).toBe(true);
  });

  it("copes with 200,000 open brackets and a value 100,000 levels deep", () => {
    expect(nestingOffset("[".repeat(200_000))).toBe(MAX_SCHEMA_NESTING);
    expect(nestsDeeperThan(nestedList(100_000))).toBe(true);
  });
});

describe("parseJsonText: nesting beyond the limit is refused before JSON.parse", () => {
  it.each<[string, string, string]>([
    // The grammar walk that finds a syntax error recursed here: a RangeError, the server's 500.
    [
      "200,000 open brackets",
      "[".repeat(200_000),
      "JSON error at line 1, column 65: objects and lists nest more than 64 levels deep here, the limit for a schema",
    ],
    [
      "a default 100,000 lists deep",
      deepDefault(100_000),
      "JSON error at line 1, column 123: objects and lists nest more than 64 levels deep here, the limit for a schema",
    ],
    [
      "one level over the limit",
      deepDefault(MAX_SCHEMA_NESTING - 2),
      "JSON error at line 1, column 123: objects and lists nest more than 64 levels deep here, the limit for a schema",
    ],
  ])("%s", (_name, text, message) => {
    const result = parseJsonText(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(translateMessage("en", result.error)).toBe(message);
  });

  it("accepts nesting at the limit, and one level more around an imported definition's schema", () => {
    expect(parseJsonText(deepDefault(MAX_SCHEMA_NESTING - 3)).ok).toBe(true);
    expect(parseJsonText(`{"jsonSchema":${deepDefault(MAX_SCHEMA_NESTING - 3)}}`, { outerLevels: 1 }).ok).toBe(true);
    expect(parseJsonText(`{"jsonSchema":${deepDefault(MAX_SCHEMA_NESTING - 2)}}`, { outerLevels: 1 }).ok).toBe(false);
  });

  it("speaks Dutch too", () => {
    const result = parseJsonText("[".repeat(200_000));
    if (result.ok) throw new Error("parsed");
    expect(translateMessage("nl", result.error)).toBe(
      "JSON-fout op regel 1, kolom 65: objecten en lijsten zijn hier meer dan 64 niveaus diep genest, de grens voor een schema",
    );
  });
});

describe("checkSchemaDialect: a parsed schema nested too deep", () => {
  it("is refused with the limit before the walk, normalisation or AJV recurse", () => {
    const schema = JSON.parse(deepDefault(100_000)) as unknown;
    expect(checked(schema)).toEqual(["the schema: objects and lists nest more than 64 levels deep, the limit for a schema"]);
    expect(checked(schema, "nl")).toEqual([
      "het schema: objecten en lijsten zijn meer dan 64 niveaus diep genest, de grens voor een schema",
    ]);
  });

  it("accepts a schema at the limit", () => {
    expect(checked(JSON.parse(deepDefault(MAX_SCHEMA_NESTING - 3)) as unknown)).toEqual([]);
    expect(checked(JSON.parse(deepDefault(MAX_SCHEMA_NESTING - 2)) as unknown)).toHaveLength(1);
  });
});

describe("readSchemaText (the impact preview): nesting beyond the limit", () => {
  it("is refused with the limit", () => {
    const result = readSchemaText("[".repeat(200_000));
    expect(result).toEqual({ ok: false, error: { key: "schemaImpact.errors.tooDeep", params: { limit: MAX_SCHEMA_NESTING } } });
    if (!result.ok)
      expect(translateMessage("en", result.error)).toBe(
        "The schema nests objects and lists more than 64 levels deep, the limit for a schema",
      );
  });
});

describe("checkSchemaDialect: $ref refused once, naming the definitions to inline", () => {
  /** The rjsf playground's way: shared parts under definitions, a $ref in each field that uses one. */
  const rjsf = {
    type: "object",
    definitions: { address: { type: "object", properties: { street: { type: "string" }, city: { type: "string" } } } },
    properties: {
      billing_address: { title: "Billing address", $ref: "#/definitions/address" },
      shipping_address: { title: "Shipping address", $ref: "#/definitions/address" },
      deliveries: { type: "array", items: { $ref: "#/definitions/address" } },
    },
  };

  it("says it once for every field that uses the definition", () => {
    expect(checked(rjsf)).toEqual([
      'The keyword $ref is not supported: inline the definition "address" where it is used, then remove definitions.',
    ]);
    expect(checked(rjsf, "nl")).toEqual([
      'Het sleutelwoord $ref wordt niet ondersteund: schrijf de definitie "address" uit op elke plek waar ze gebruikt wordt en verwijder daarna definitions.',
    ]);
  });

  it("names each definition once, and $defs too", () => {
    const schema = {
      type: "object",
      $defs: { address: { type: "string" }, "a/b": { type: "string" } },
      properties: { a: { $ref: "#/$defs/address" }, b: { $ref: "#/$defs/a~1b" }, c: { $ref: "#/$defs/address" } },
    };
    expect(checked(schema)).toEqual([
      'The keyword $ref is not supported: inline the definitions "address", "a/b" where they are used, then remove $defs.',
    ]);
  });

  it("asks for the schema in place of a $ref to anything else, and still refuses definitions no $ref uses", () => {
    const schema = {
      type: "object",
      definitions: {},
      properties: { a: { $ref: "https://example.org/a.json" }, b: { $ref: "https://example.org/a.json" } },
    };
    expect(checked(schema)).toEqual([
      'The keyword $ref is not supported: put the schema it points to in its place ("https://example.org/a.json").',
      "the schema: the keyword definitions is not supported: the form can't render it",
    ]);
  });
});
