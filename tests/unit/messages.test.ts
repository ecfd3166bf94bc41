import { describe, expect, it } from "vitest";
import { catalogues } from "@core/catalogues";
import { createI18n } from "~/lib/i18n";
import { SUPPORTED_LOCALES, type Locale } from "@core/locales";
import { createAjv } from "@core/schema/ajv";
import { mapValidationErrors } from "@core/schema/errors";
import { formatMessage } from "@core/messages";

/** Every message, all the catalogue's parts (core/catalogue-parts.ts). */
const en = catalogues.en!;
const nl = catalogues.nl!;

/** AJV keywords with a message of their own (spec §5); any other keyword says validation.default. */
const VALIDATION_KEYWORDS = Object.keys(en.validation).filter((keyword) => keyword !== "formats");
/** The validation templates of the catalogue, by keyword, as the tests read them. */
const VALIDATION_MESSAGES: Record<Locale, Record<string, string>> = {
  en: Object.fromEntries(VALIDATION_KEYWORDS.map((keyword) => [keyword, (en.validation as Record<string, unknown>)[keyword] as string])),
  nl: Object.fromEntries(VALIDATION_KEYWORDS.map((keyword) => [keyword, (nl.validation as Record<string, unknown>)[keyword] as string])),
};
import { normalizeSchema, type JsonSchema } from "@core/schema/normalize";

/*
 * Spec §5 validation messages and §2/§8 texts, in English and Dutch. The spec's wording is
 * written out here: a change of wording in the app fails these tests.
 */

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;
const placeholders = (text: string) => [...text.matchAll(PLACEHOLDER)].map((match) => match[1]!).sort();

describe("the spec's validation messages, word for word (spec §5)", () => {
  // keyword, AJV params, spec English (with {{param}}), spec Dutch
  it.each<[string, Record<string, unknown>, string, string]>([
    ["required", { missingProperty: "title" }, "This field is required", "Dit is een verplicht veld"],
    ["isNotEmpty", {}, "This field is required", "Dit is een verplicht veld"],
    ["type", { type: "integer" }, "This field is required", "Dit is een verplicht veld"],
    [
      "minItems",
      { limit: 2 },
      "This list should have minimum {{limit}} item(s)",
      "Er moeten minstens {{limit}} items in deze lijst zitten",
    ],
    [
      "maxItems",
      { limit: 5 },
      "This list can't contain more than {{limit}} item(s)",
      "Er mogen maximaal {{limit}} items in deze lijst zitten",
    ],
  ])("%s", (keyword, params, english, dutch) => {
    expect(VALIDATION_MESSAGES.en[keyword]).toBe(english);
    expect(VALIDATION_MESSAGES.nl[keyword]).toBe(dutch);
    const filled = (template: string) => template.replaceAll(PLACEHOLDER, (_whole, name: string) => String(params[name]));
    expect(formatMessage(VALIDATION_MESSAGES.en[keyword]!, params)).toBe(filled(english));
    expect(formatMessage(VALIDATION_MESSAGES.nl[keyword]!, params)).toBe(filled(dutch));
    expect(filled(english)).not.toMatch(/\{\{/);
  });
});

/** Every message the form can show, from a real AJV error, filled, in both languages. */
const KEYWORD_TABLE: Array<[string, JsonSchema, unknown, string, string]> = [
  [
    "required",
    { type: "object", required: ["x"], properties: { x: { type: "string" } } },
    {},
    "This field is required",
    "Dit is een verplicht veld",
  ],
  ["isNotEmpty", { type: "string", isNotEmpty: true }, " ", "This field is required", "Dit is een verplicht veld"],
  ["type", { type: "number" }, "ten", "This field is required", "Dit is een verplicht veld"],
  [
    "minItems",
    { type: "array", minItems: 3 },
    [1],
    "This list should have minimum 3 item(s)",
    "Er moeten minstens 3 items in deze lijst zitten",
  ],
  [
    "maxItems",
    { type: "array", maxItems: 1 },
    [1, 2],
    "This list can't contain more than 1 item(s)",
    "Er mogen maximaal 1 items in deze lijst zitten",
  ],
  [
    "maxLength",
    { type: "string", maxLength: 140 },
    "x".repeat(141),
    "This text can't be longer than 140 characters",
    "Deze tekst mag niet langer zijn dan 140 tekens",
  ],
  [
    "minLength",
    { type: "string", minLength: 8 },
    "short",
    "This text should be at least 8 characters",
    "Deze tekst moet minstens 8 tekens lang zijn",
  ],
  ["minimum", { type: "number", minimum: -2.5 }, -3, "This value should be at least -2.5", "Deze waarde moet minstens -2.5 zijn"],
  ["maximum", { type: "number", maximum: 0 }, 1, "This value can't be more than 0", "Deze waarde mag niet meer zijn dan 0"],
  [
    "exclusiveMinimum",
    { type: "number", exclusiveMinimum: 1 },
    1,
    "This value should be more than 1",
    "Deze waarde moet groter zijn dan 1",
  ],
  [
    "exclusiveMaximum",
    { type: "number", exclusiveMaximum: 100 },
    100,
    "This value should be less than 100",
    "Deze waarde moet kleiner zijn dan 100",
  ],
  [
    "multipleOf",
    { type: "number", multipleOf: 0.5 },
    0.3,
    "This value should be a multiple of 0.5",
    "Deze waarde moet een veelvoud zijn van 0.5",
  ],
  ["format", { type: "string", format: "time" }, "24:00", "This value is not a valid time", "Deze waarde is geen geldige tijd"],
  [
    "pattern",
    { type: "string", pattern: "^\\d+$" },
    "12a",
    "This value doesn't have the expected form",
    "Deze waarde heeft niet de verwachte vorm",
  ],
  ["enum", { type: "string", enum: ["a", "b"] }, "c", "Pick one of the options", "Kies een van de opties"],
  ["const", { const: 1 }, 2, "This value is not allowed", "Deze waarde is niet toegestaan"],
  [
    "additionalProperties",
    { type: "object", properties: { a: { type: "string" } } },
    { a: "x", zz: 1 },
    "Unknown field: zz",
    "Onbekend veld: zz",
  ],
  ["default", { type: "array", uniqueItems: true }, [1, 1], "This value is not valid", "Deze waarde is niet geldig"],
];

describe("every validation message, from a real AJV error, in English and Dutch, with {{param}} filled", () => {
  const ajv = createAjv();
  it.each(KEYWORD_TABLE)("%s", (_keyword, property, value, english, dutch) => {
    const { schema } = normalizeSchema({ type: "object", properties: { field: property } }, ["en"]);
    const validate = ajv.compile(schema);
    expect(validate({ field: value })).toBe(false);
    const messages = (locale: Locale) => Object.values(mapValidationErrors(validate.errors, schema, locale).byField).flat();
    expect(messages("en")).toEqual([english]);
    expect(messages("nl")).toEqual([dutch]);
  });

  it("the table has every message of both languages", () => {
    const covered = KEYWORD_TABLE.map(([keyword]) => keyword).sort();
    expect(Object.keys(VALIDATION_MESSAGES.en).sort()).toEqual(covered);
    expect(Object.keys(VALIDATION_MESSAGES.nl).sort()).toEqual(covered);
  });
});

describe("validation message sets: no missing translation", () => {
  it.each(SUPPORTED_LOCALES)("%s has a message set", (locale) => {
    expect(Object.keys(VALIDATION_MESSAGES[locale]).length).toBeGreaterThan(0);
  });

  it.each(Object.keys(VALIDATION_MESSAGES.en).map((keyword) => [keyword]))(
    "%s: both languages, same placeholders, really translated",
    (keyword) => {
      const english = VALIDATION_MESSAGES.en[keyword];
      const dutch = VALIDATION_MESSAGES.nl[keyword];
      expect(english?.trim()).toBeTruthy();
      expect(dutch?.trim()).toBeTruthy();
      expect(placeholders(dutch!)).toEqual(placeholders(english!));
      expect(dutch).not.toBe(english);
    },
  );

  it.each(Object.keys(VALIDATION_MESSAGES.nl).map((keyword) => [keyword]))("%s in Dutch exists in English", (keyword) => {
    expect(VALIDATION_MESSAGES.en[keyword]).toBeDefined();
  });
});

describe("formatMessage fills {{param}}", () => {
  it.each<[string, Record<string, unknown>, string]>([
    ["max {{limit}}", { limit: 3 }, "max 3"],
    ["{{limit}} and {{limit}}", { limit: 2 }, "2 and 2"],
    ["{{a}}-{{b}}", { a: 1, b: "x" }, "1-x"],
    ["zero: {{limit}}", { limit: 0 }, "zero: 0"],
    ["false: {{flag}}", { flag: false }, "false: false"],
    ["a decimal: {{limit}}", { limit: 0.1 }, "a decimal: 0.1"],
    ["a negative: {{limit}}", { limit: -5 }, "a negative: -5"],
    ["no placeholders", { limit: 3 }, "no placeholders"],
    ["{{missing}} stays", {}, "{{missing}} stays"],
    ["a value with braces: {{v}}", { v: "{{limit}}" }, "a value with braces: {{limit}}"], // not filled twice
    ["a value with $&: {{v}}", { v: "$&$1" }, "a value with $&: $&$1"], // no replacement patterns
  ])("%j with %j → %j", (template, params, expected) => {
    expect(formatMessage(template, params)).toBe(expected);
  });
});

/* The message files of the interface (locales/en, locales/nl). */

type Tree = { [key: string]: string | Tree };
function flatten(tree: Tree, prefix = ""): Array<[string, string]> {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [[`${prefix}${key}`, value] as [string, string]] : flatten(value, `${prefix}${key}.`),
  );
}
const EN = new Map(flatten(en));
const NL = new Map(flatten(nl));

describe("locales/en and locales/nl: every message in both languages", () => {
  it.each([...EN.keys()].map((key) => [key]))("en %s exists in nl, not empty, with the same placeholders", (key) => {
    expect(NL.has(key)).toBe(true);
    expect(NL.get(key)!.trim()).not.toBe("");
    expect(placeholders(NL.get(key)!)).toEqual(placeholders(EN.get(key)!));
  });

  it.each([...NL.keys()].map((key) => [key]))("nl %s exists in en", (key) => {
    expect(EN.has(key)).toBe(true);
    expect(EN.get(key)!.trim()).not.toBe("");
  });

  const withPlaceholders = [...EN.entries()].filter(([, text]) => placeholders(text).length).map(([key]) => [key] as [string]);
  it.each(withPlaceholders)("%s: every {{param}} is filled, in both languages", (key) => {
    const params: Record<string, unknown> = Object.fromEntries(
      placeholders(EN.get(key)!).map((name) => [name, name === "count" ? 3 : `«${name}»`]),
    );
    // A plural form is found by its count, whether or not its text shows the number.
    if (/_(zero|one|two|few|many|other)$/.test(key)) params.count ??= key.endsWith("_one") ? 1 : 3;
    for (const locale of SUPPORTED_LOCALES) {
      const text = createI18n(locale).t(key.replace(/_(zero|one|two|few|many|other)$/, ""), params);
      expect(text, locale).not.toMatch(/\{\{|\}\}/);
      for (const [name, value] of Object.entries(params)) if (name !== "count") expect(text, locale).toContain(String(value));
    }
  });
});

describe("the spec's interface texts (spec §2 Field UI, §4, §8)", () => {
  // key, params, English, Dutch (null: the spec gives no Dutch; only checked to be filled and translated)
  it.each<[string, Record<string, unknown>, string, string | null]>([
    ["form.noComponent", { name: "rooms[0].kind" }, "No component found to render rooms[0].kind", null],
    // The spec quotes these in Dutch (spec §2): that is the Dutch interface; the English one says the same in English.
    ["form.active", {}, "Active", "Actief"],
    ["form.inactive", {}, "Inactive", "Inactief"],
    ["form.clearFields", {}, "Clear fields", "Velden leegmaken"],
    ["form.pickAnOption", {}, "Pick an option", null],
    ["form.add", {}, "Add", null],
    ["form.newTag", {}, "+ New Tag", null],
    ["form.noEntries", {}, "No entries", null],
    ["form.editTitle", { title: "Artist" }, "Edit Artist", null],
    [
      "subForm.conflict",
      {},
      "Version conflict: unfortunately the data in this sub-form has been edited by someone else. Open this document in another tab and apply your changes again.",
      null,
    ],
    [
      "subForm.saveFailed",
      {},
      "Error saving sub-form: for unknown reasons the sub-form couldn't be saved. Try again in a bit, or reach out to support.",
      null,
    ],
    ["subForm.fetchFailed", {}, "Something went wrong fetching the subform content, please try again or contact support.", null],
    ["media.verifying", {}, "Verifying...", null],
    ["media.uploading", {}, "Uploading...", null],
    ["media.uploadError", { type: "image" }, "Error uploading image", null],
    ["media.converting", { type: "video" }, "Converting video...", null],
    ["media.extracting", { type: "video" }, "Extracting thumbnails from video...", null],
    ["media.processing", {}, "Processing...", null],
    ["media.processingFailed", {}, "An unknown error occured", null],
    ["media.cropTitle", {}, "Crop Image", null],
    // Quoted in English by the spec (§2 Field UI, §5): exact in English, translated in Dutch.
    ["media.selectThumbnail", {}, "Select Thumbnail", "Thumbnail kiezen"],
    ["media.selectStill", {}, "Select Still", "Still kiezen"],
    ["media.customStillTab", {}, "Custom Still", "Eigen still"],
    ["media.incorrectSizeTitle", {}, "Incorrect Size", "Onjuist formaat"],
    [
      "media.incorrectSize",
      {},
      "The still you are trying to upload is smaller then the resolution video file. Are you sure this is ok?",
      "De still die je probeert te uploaden is kleiner dan de resolutie van het videobestand. Weet je zeker dat dit goed is?",
    ],
    ["home.title", {}, "Content", "Inhoud"],
    ["sessionOverview.caseCount", { count: 2 }, "2 cases", "2 casussen"],
    ["sessionOverview.caseCount", { count: 1 }, "1 case", "1 casus"],
    ["sessionEditor.summary.cases", { count: 2 }, "2 cases", "2 casussen"],
    ["media.dropHere", { type: "image" }, "Drag your image here", null],
    ["media.browse", { type: "image" }, "Browse to image", null],
    ["errors.notFound", {}, "This page could not be found", null],
    ["errors.errorPageFailed", {}, "An error occurred while showing the error page", null],
    ["errors.goHome", {}, "Go back to home", null],
  ])("%s", (key, params, english, dutch) => {
    expect(createI18n("en").t(key, params)).toBe(english);
    const inDutch = createI18n("nl").t(key, params);
    if (dutch !== null) expect(inDutch).toBe(dutch);
    expect(inDutch).not.toBe(key); // present, not the key echoed back
    expect(inDutch).not.toMatch(/\{\{/);
    for (const value of Object.values(params)) expect(inDutch).toContain(String(value));
  });

  it.each<[Locale, number, string]>([
    ["en", 1, "1 result"],
    ["en", 2, "2 results"],
    ["en", 0, "0 results"],
    ["nl", 1, "1 resultaat"],
    ["nl", 2, "2 resultaten"],
  ])("plural: %s, %s → %s", (locale, count, text) => {
    expect(createI18n(locale).t("references.searchResults", { count })).toBe(text);
  });
});
