import { describe, expect, it } from "vitest";
import { coerceFormValue, storedFormValue } from "@core/form/kinds";
import { checkDocument, resolveDocument, storedDocumentErrors } from "@core/form/resolve";
import { compileBucketSchema } from "@server/content/validator";

/*
 * Issue 36, items 1 and 12: a select of a number or integer enum posts its option's text, which the form turns
 * back into the enum's number (the same core code in the browser and on the server); a number field's unreadable
 * input and a stored value the schema refuses each get a message that says what the value is.
 */

const { schema, validate } = compileBucketSchema({
  jsonSchema: {
    type: "object",
    properties: {
      size: { type: "number", title: "Size", enum: [1, 2.5, 3] },
      floor: { type: "integer", title: "Floor", enum: [0, 1, 2] },
      room: { type: "string", title: "Room", enum: ["east", "1"] },
      mixed: { title: "Mixed", enum: ["1", 1, true] },
      rooms: { type: "array", title: "Rooms", items: { type: "object", properties: { floor: { type: "integer", enum: [1, 2] } } } },
      count: { type: "integer", title: "Count" },
      born: { type: "integer", title: "Born" },
      ratio: { type: "number", title: "Ratio" },
      title: { type: "string", title: "Title", translate: true },
      kind: { type: "string", title: "Kind", enum: ["a", "b"] },
    },
  },
  locales: ["nl", "en"],
});

describe("a select of an enum posts text: the value is the member it names", () => {
  it.each<[string, unknown, unknown]>([
    ["number", { type: "number", enum: [1, 2, 3] }, 2],
    ["number with a fraction", { type: "number", enum: [1, 2.5] }, 2.5],
    ["integer", { type: "integer", enum: [1, 2, 3] }, 2],
    ["string", { type: "string", enum: ["1", "2"] }, "2"],
    ["no type, mixed: the text itself first", { enum: ["2", 2] }, "2"],
    ["no type, a number", { enum: ["x", 2] }, 2],
    ["a boolean", { enum: [true, false] }, false],
  ])("%s", (_case, field, value) => {
    const posted = _case === "a boolean" ? "false" : _case === "number with a fraction" ? "2.5" : "2";
    expect(coerceFormValue(posted, field as Record<string, unknown>)).toEqual(value);
  });

  it("keeps text no member names as sent (validation reports it) and leaves out an empty choice", () => {
    expect(coerceFormValue("4", { type: "number", enum: [1, 2, 3] })).toBe("4");
    expect(coerceFormValue("", { type: "integer", enum: [1, 2, 3] })).toBeUndefined();
    expect(coerceFormValue(2, { type: "integer", enum: [1, 2, 3] })).toBe(2);
  });

  it("saves the form's post of numeric enums as numbers, at the top and in list rows", () => {
    expect(resolveDocument({ size: "2.5", floor: "0", room: "1", mixed: "1", rooms: [{ floor: "2" }] }, schema, validate, "en")).toEqual({
      value: { size: 2.5, floor: 0, room: "1", mixed: "1", rooms: [{ floor: 2 }] },
    });
  });

  it("refuses an option the enum does not have with one message, not also 'This field is required'", () => {
    expect(resolveDocument({ size: "4" }, schema, validate, "en")).toEqual({ error: { size: ["Pick one of the options"] } });
    expect(resolveDocument({ floor: "7" }, schema, validate, "nl")).toEqual({ error: { floor: ["Kies een van de opties"] } });
  });

  it("opens a document whose numeric enum was set as a number (the JSON API) with that number's option", () => {
    // Conform shows a number's text; the select's option has the same text.
    expect(storedFormValue({ size: 2.5, floor: 0 }, schema)).toEqual({ size: 2.5, floor: 0 });
    expect(storedDocumentErrors({ size: 2.5, floor: 0 }, schema, validate, "en")).toBeNull();
  });
});

describe("a number field's unreadable input says what is wrong with it (spec §5)", () => {
  it.each<[string, Record<string, unknown>, "en" | "nl", Record<string, string[]>]>([
    ["a decimal in an integer field", { count: "7.5" }, "en", { count: ["“7.5” is not a whole number"] }],
    ["in Dutch", { count: "7,5" }, "nl", { count: ["“7,5” is geen geheel getal"] }],
    ["letters in a number field", { ratio: "abc" }, "en", { ratio: ["“abc” is not a number"] }],
    ["in Dutch", { ratio: "1.2.3" }, "nl", { ratio: ["“1.2.3” is geen getal"] }],
    ["a long text is shortened", { ratio: "9".repeat(100) + "x" }, "en", { ratio: [`“${"9".repeat(79)}…” is not a number`] }],
  ])("%s (%s)", (_case, payload, locale, error) => {
    expect(resolveDocument(payload, schema, validate, locale)).toEqual({ error });
  });

  it("keeps a text field's type message: only number fields read typed text", () => {
    expect(resolveDocument({ kind: "c" }, schema, validate, "en")).toEqual({ error: { kind: ["Pick one of the options"] } });
  });
});

describe("a stored value the schema refuses is shown with its message (schema changed under the document)", () => {
  it.each<[string, Record<string, unknown>, "en" | "nl", Record<string, string[]>]>([
    [
      "a date where the field is now an integer",
      { born: "1831-02-23" },
      "en",
      { born: ["This field is required", "Stored value: 1831-02-23"] },
    ],
    ["in Dutch", { born: "1831-02-23" }, "nl", { born: ["Dit is een verplicht veld", "Opgeslagen waarde: 1831-02-23"] }],
    ["an option the enum lost", { kind: "c" }, "en", { kind: ["Pick one of the options", "Stored value: c"] }],
    [
      "a number that is now a translated text",
      { title: { nl: 12, en: "x" } },
      "en",
      { "title.nl": ["This field is required", "Stored value: 12"] },
    ],
    [
      "an object where the field holds one value",
      { count: { a: 1 } },
      "en",
      { count: ["This field is required", 'Stored value: {"a":1}'] },
    ],
    ["in a list row", { rooms: [{ floor: 3 }] }, "en", { "rooms[0].floor": ["Pick one of the options", "Stored value: 3"] }],
  ])("%s (%s)", (_case, data, locale, errors) => {
    expect(storedDocumentErrors(data, schema, validate, locale)).toEqual(errors);
  });

  it("adds nothing where the value is missing, or too long rather than of the wrong kind", () => {
    const { schema: required, validate: check } = compileBucketSchema({
      jsonSchema: { type: "object", required: ["name"], properties: { name: { type: "string", maxLength: 2 }, other: { type: "string" } } },
      locales: ["en"],
    });
    expect(storedDocumentErrors({ other: "x" }, required, check, "en")).toEqual({ name: ["This field is required"] });
    expect(storedDocumentErrors({ name: "abc" }, required, check, "en")).toEqual({ name: ["This text can't be longer than 2 characters"] });
  });
});

describe("the JSON API says the same as the form (checkDocument)", () => {
  it.each<[string, Record<string, unknown>, Record<string, string[]>]>([
    ["text that is no number", { count: "7.5" }, { count: ["“7.5” is not a whole number"] }],
    ["a number as text: the wrong type, as the validator says", { count: "7" }, { count: ["This field is required"] }],
    ["text no option of a number enum names", { size: "4" }, { size: ["Pick one of the options"] }],
    ["an option's number as text", { size: "2.5" }, { size: ["This field is required", "Pick one of the options"] }],
  ])("%s", (_case, content, byField) => {
    expect(checkDocument(content, schema, validate!, "en")).toMatchObject({ ok: false, status: 422, errors: { byField } });
  });
});
