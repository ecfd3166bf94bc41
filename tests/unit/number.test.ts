import { describe, expect, it } from "vitest";
import { coerceFormValue } from "@core/form/kinds";
import { applyStepIntent, STEP_FIELD, stepButtonValue } from "@core/form/step";
import { normalizeSchema } from "@core/schema/normalize";
import { acceptNumberInput, decimalsOf, defaultStep, parseNumberInput, stepValue } from "@core/schema/number";

/*
 * Spec §5 number input: an integer is an optional sign plus digits; a number adds an
 * optional decimal part with a comma or a dot (a comma becomes a dot); invalid input
 * reverts to the last valid value, empty input clears; step defaults 1 and 0.1; the
 * plus and minus buttons move by the step, rounded to the step's decimals.
 */

type Expected = number | "invalid" | "empty";
type Row = [string, string, Expected, Expected]; // what, typed, as integer, as number

const PARSE_TABLE: Row[] = [
  // digits
  ["digits", "42", 42, 42],
  ["zero", "0", 0, 0],
  ["leading zeros", "007", 7, 7],
  ["a long integer", "123456789012", 123456789012, 123456789012],
  // sign
  ["minus", "-42", -42, -42],
  ["leading plus", "+42", 42, 42],
  ["sign alone: minus", "-", "invalid", "invalid"],
  ["sign alone: plus", "+", "invalid", "invalid"],
  ["two signs", "--1", "invalid", "invalid"],
  ["plus and minus", "+-1", "invalid", "invalid"],
  ["sign at the end", "1-", "invalid", "invalid"],
  ["sign then space", "- 1", "invalid", "invalid"],
  // decimal separator
  ["dot", "3.25", "invalid", 3.25],
  ["comma becomes a dot", "3,25", "invalid", 3.25],
  ["minus with comma", "-0,5", "invalid", -0.5],
  ["plus with dot", "+0.5", "invalid", 0.5],
  ["trailing dot", "2.", "invalid", 2],
  ["trailing comma", "2,", "invalid", 2],
  ["leading zeros and a comma", "00,10", "invalid", 0.1],
  ["no digit before the dot", ".5", "invalid", "invalid"],
  ["no digit before the comma", ",5", "invalid", "invalid"],
  ["sign, then the separator", "-,5", "invalid", "invalid"],
  ["a separator alone", ",", "invalid", "invalid"],
  // several separators
  ["two dots", "1.2.3", "invalid", "invalid"],
  ["two commas", "1,2,3", "invalid", "invalid"],
  ["dot then comma", "1.2,3", "invalid", "invalid"],
  ["thousands and decimals", "1.000,5", "invalid", "invalid"],
  ["doubled separator", "1,,2", "invalid", "invalid"],
  // letters and other notations
  ["letters", "abc", "invalid", "invalid"],
  ["digits then letters", "12abc", "invalid", "invalid"],
  ["letters then digits", "abc12", "invalid", "invalid"],
  ["exponent", "1e5", "invalid", "invalid"],
  ["hexadecimal", "0x10", "invalid", "invalid"],
  ["Infinity", "Infinity", "invalid", "invalid"],
  ["NaN", "NaN", "invalid", "invalid"],
  ["underscore separator", "1_000", "invalid", "invalid"],
  ["full-width digits", "１２", "invalid", "invalid"],
  ["Arabic-Indic digits", "٣", "invalid", "invalid"],
  ["too large to be a number", "9".repeat(400), "invalid", "invalid"],
  // whitespace
  ["spaces around", "  12  ", 12, 12],
  ["tab and newline around", "\t12\n", 12, 12],
  ["no-break spaces around", "\u00a012\u00a0", 12, 12],
  ["space inside", "1 2", "invalid", "invalid"],
  ["space as thousands separator", "1 000,5", "invalid", "invalid"],
  ["zero-width space", "5\u200b", "invalid", "invalid"],
  // empty clears
  ["empty", "", "empty", "empty"],
  ["only spaces", "   ", "empty", "empty"],
];

describe("parseNumberInput (spec §5)", () => {
  it.each(PARSE_TABLE)("%s: %j → integer %s, number %s", (_what, text, asInteger, asNumber) => {
    for (const [type, expected] of [
      ["integer", asInteger],
      ["number", asNumber],
    ] as const) {
      const parsed = parseNumberInput(text, type);
      if (expected === "invalid" || expected === "empty") expect(parsed, type).toEqual({ kind: expected });
      else expect(parsed, type).toEqual({ kind: "value", value: expected });
    }
  });
});

describe("acceptNumberInput: invalid input reverts to the last valid value, empty clears (spec §4, §5)", () => {
  it.each<[string, "integer" | "number", number | undefined, number | undefined]>([
    ["abc", "number", 2.5, 2.5],
    ["1.2.3", "number", 2.5, 2.5],
    ["-", "number", 2.5, 2.5],
    ["-", "integer", 3, 3],
    ["1.5", "integer", 3, 3],
    ["1,5", "integer", 3, 3],
    ["abc", "integer", undefined, undefined],
    ["", "number", 2.5, undefined],
    ["  ", "integer", 3, undefined],
    ["7", "integer", 3, 7],
    [" -7 ", "integer", 3, -7],
    ["+7", "integer", undefined, 7],
    ["0,75", "number", 2.5, 0.75],
    ["0", "number", 2.5, 0],
  ])("typing %j in a %s field that showed %s leaves %s", (text, type, last, shown) => {
    expect(acceptNumberInput(text, type, last)).toBe(shown);
  });

  it("follows a sequence of keystrokes like the field does", () => {
    let shown: number | undefined;
    const typed = ["1", "1,", "1,5", "1,5x", "1,5", "-", "", "-2"];
    const seen = typed.map((text) => (shown = acceptNumberInput(text, "number", shown)));
    expect(seen).toEqual([1, 1, 1.5, 1.5, 1.5, 1.5, undefined, -2]);
  });
});

describe("steps (spec §5, §9: defaults 1 and 0.1)", () => {
  it.each([
    ["integer", 1],
    ["number", 0.1],
  ] as const)("the default step of %s is %s", (type, step) => {
    expect(defaultStep(type)).toBe(step);
  });

  it.each([
    [10, 0],
    [1, 0],
    [0.5, 1],
    [0.1, 1],
    [0.25, 2],
    [0.01, 2],
    [0.125, 3],
    [2.5, 1],
    [1e-3, 3],
    [2e-8, 8],
    [-0.05, 2],
  ])("step %s has %s decimal(s)", (step, decimals) => {
    expect(decimalsOf(step)).toBe(decimals);
  });

  it.each<[string, number | undefined, number, 1 | -1, number]>([
    // default number step 0.1: binary sums are rounded back to one decimal
    ["0.1 + 0.1", 0.1, 0.1, 1, 0.2],
    ["0.2 + 0.1 (0.30000000000000004)", 0.2, 0.1, 1, 0.3],
    ["0.7 + 0.1 (0.7999999999999999)", 0.7, 0.1, 1, 0.8],
    ["1.1 + 0.1", 1.1, 0.1, 1, 1.2],
    ["0.3 − 0.1 (0.19999999999999998)", 0.3, 0.1, -1, 0.2],
    ["0.05 − 0.1 rounds away from zero", 0.05, 0.1, -1, -0.1],
    ["below zero and back", -0.1, 0.1, 1, 0],
    ["a value with more decimals than the step", 1.23456, 0.1, 1, 1.3],
    // step 0.25
    ["0.25 + 0.25", 0.25, 0.25, 1, 0.5],
    ["0.5 − 0.25", 0.5, 0.25, -1, 0.25],
    ["0.1 + 0.25 (not a multiple)", 0.1, 0.25, 1, 0.35],
    // two decimals
    ["0.29 + 0.01", 0.29, 0.01, 1, 0.3],
    ["100.05 + 0.05", 100.05, 0.05, 1, 100.1],
    // step 5 on integers: moves by 5, does not snap to multiples
    ["10 + 5", 10, 5, 1, 15],
    ["7 + 5", 7, 5, 1, 12],
    ["-3 − 5", -3, 5, -1, -8],
    // default integer step 1
    ["41 + 1", 41, 1, 1, 42],
    ["0 − 1", 0, 1, -1, -1],
    // an empty field counts as 0
    ["empty + 0.1", undefined, 0.1, 1, 0.1],
    ["empty − 1", undefined, 1, -1, -1],
    ["empty + 5", undefined, 5, 1, 5],
    // tiny steps
    ["0.000001 + 1e-7", 0.000001, 1e-7, 1, 0.0000011],
  ])("%s → %s", (_case, value, step, direction, result) => {
    expect(stepValue(value, step, direction)).toBe(result);
  });

  it("a hundred presses of +0.1 from 0 land on 10, never on a long binary fraction", () => {
    let value: number | undefined;
    const seen: number[] = [];
    for (let press = 0; press < 100; press++) seen.push((value = stepValue(value, 0.1, 1)));
    expect(value).toBe(10);
    for (const shown of seen) expect(String(shown)).toMatch(/^\d+(\.\d)?$/);
  });
});

describe("plus and minus without JavaScript: the action turns the button into Conform's update intent", () => {
  const { schema } = normalizeSchema(
    {
      type: "object",
      properties: {
        count: { type: "integer" },
        fives: { type: "integer", step: 5 },
        price: { type: "number" },
        quarter: { type: "number", step: 0.25 },
        rooms: { type: "array", items: { type: "object", properties: { capacity: { type: "number", step: 0.5 } } } },
        name: { type: "string" },
        years: { type: "object", properties: { "2024": { type: "integer" } } },
      },
    },
    ["en"],
  );

  const press = (name: string, direction: 1 | -1, typed?: string, raw = stepButtonValue(name, direction)) => {
    const formData = new FormData();
    if (typed !== undefined) formData.set(name, typed);
    formData.set(STEP_FIELD, raw);
    applyStepIntent(formData, schema);
    expect(formData.has(STEP_FIELD)).toBe(false);
    const intent = formData.get("__intent__");
    if (intent === null) return null;
    if (typeof intent !== "string") throw new Error("__intent__ is a file, not text");
    return JSON.parse(intent) as { type: string; payload: { name: string; value: string } };
  };

  it.each<[string, string, 1 | -1, string | undefined, string]>([
    ["integer, default step 1", "count", 1, "41", "42"],
    ["integer, default step 1, down", "count", -1, "0", "-1"],
    ["integer, step 5", "fives", 1, "7", "12"],
    ["number, default step 0.1", "price", 1, "0,2", "0.3"],
    ["number, default step 0.1, down", "price", -1, "0.3", "0.2"],
    ["number, step 0.25", "quarter", 1, "0,5", "0.75"],
    ["in a list row", "rooms[1].capacity", 1, "1,5", "2"],
    ["an all-digit property name", "years.2024", 1, "3", "4"],
    ["an empty field starts at 0", "price", 1, "", "0.1"],
    ["nothing sent starts at 0", "count", -1, undefined, "-1"],
    ["unreadable input starts at 0", "quarter", 1, "abc", "0.25"],
  ])("%s: %s %s from %j → %s", (_case, name, direction, typed, value) => {
    expect(press(name, direction, typed)).toEqual({ type: "update", payload: { name, value } });
  });

  it.each<[string, string]>([
    ["not JSON", "{count"],
    ["no name", JSON.stringify({ direction: 1 })],
    ["a direction other than ±1", JSON.stringify({ name: "count", direction: 2 })],
    ["a text field", stepButtonValue("name", 1)],
    ["an unknown field", stepButtonValue("nope", 1)],
    ["a list, not a number", stepButtonValue("rooms", 1)],
  ])("a malformed press (%s) is dropped", (_case, raw) => {
    expect(press("count", 1, "1", raw)).toBeNull();
  });
});

describe("number fields in a form post (coercion before validation)", () => {
  it.each<[string, "integer" | "number", unknown]>([
    ["12", "integer", 12],
    [" -12 ", "integer", -12],
    ["+3", "integer", 3],
    ["3,5", "number", 3.5],
    ["3.5", "number", 3.5],
    ["", "number", undefined],
    ["   ", "integer", undefined],
    // unreadable input stays as typed, so validation reports it under its field
    ["3,5", "integer", "3,5"],
    ["abc", "number", "abc"],
    ["1.2.3", "number", "1.2.3"],
  ])("%j in a %s field → %j", (text, type, value) => {
    expect(coerceFormValue(text, { type })).toEqual(value);
  });
});
