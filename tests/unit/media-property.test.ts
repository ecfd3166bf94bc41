import { describe, expect, it } from "vitest";
import { cropAllowed, mediaPropertiesOf, resolveMediaProperty } from "@server/media/field-property";
import { errorText, HttpError } from "@server/errors";

/** The refusal a call throws, in English words with its status. */
function refusal(call: () => unknown): { status: number; text: string } {
  try {
    call();
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, text: errorText(error, "en") };
    throw error;
  }
  throw new Error("expected a refusal");
}

const schema = {
  type: "object",
  properties: {
    hero: { type: "string", title: "Hero", _ref: "b-image", minWidth: "4K", enableCrop: true },
    caption: { type: "string", title: "Caption", translate: true },
    gallery: { type: "array", items: { type: "string", title: "Photo", _ref: "b-image", maxWidth: 2000 } },
    localised: { type: "string", title: "Poster", _ref: "b-image", translate: true, minWidth: "4K", enableCrop: true },
    clip: { type: "string", _ref: "b-video", allowCustomStill: true },
    nested: { type: "object", properties: { doc: { type: "string", _ref: "b-file", allowedFiles: ["pdf"] } } },
  },
};

describe("media field rules come from the bucket schema", () => {
  it("finds every field of a kind: properties, list items, nested objects", () => {
    expect(mediaPropertiesOf(schema, "image").map((property) => property.title)).toEqual(["Hero", "Photo", "Poster"]);
    expect(mediaPropertiesOf(schema, "video")).toHaveLength(1);
    expect(mediaPropertiesOf(schema, "file").map((property) => property.allowedFiles)).toEqual([["pdf"]]);
  });

  it.each([
    ["the same rules, another title and translate flag", { _ref: "b-image", title: "Anything", minWidth: "4K", enableCrop: true }, "Hero"],
    ["a list item's rules", { maxWidth: 2000 }, "Photo"],
    ["as JSON text", JSON.stringify({ maxWidth: 2000, _ref: "b-image" }), "Photo"],
  ])("matches %s", (_case, sent, title) => {
    expect(resolveMediaProperty(schema, "image", sent).title).toBe(title);
  });

  it.each([
    ["looser bounds", { maxWidth: 99_999 }, /matches no image field/],
    ["a dropped rule", { minWidth: "4K" }, /matches no image field/],
    ["an added rule", { maxWidth: 2000, enableCrop: true }, /matches no image field/],
    ["a list", "[1]", "The field 'properties' must be a JSON object."],
    ["broken JSON", "{", "The field 'properties' must be a JSON object."],
    ["a number", 5, "The field 'properties' must be a JSON object."],
  ])("refuses %s (400)", (_case, sent, message) => {
    const refused = refusal(() => resolveMediaProperty(schema, "image", sent));
    expect(refused.status).toBe(400);
    if (typeof message === "string") expect(refused.text).toBe(message);
    else expect(refused.text).toMatch(message);
  });

  it("without properties takes the one set of rules, refuses a choice between several and a bucket without the kind", () => {
    expect(resolveMediaProperty(schema, "video", undefined).allowCustomStill).toBe(true);
    expect(resolveMediaProperty(schema, "file", "").allowedFiles).toEqual(["pdf"]);
    expect(refusal(() => resolveMediaProperty(schema, "image", undefined)).text).toMatch(/image fields with different rules/);
    expect(refusal(() => resolveMediaProperty({ type: "object", properties: {} }, "video", undefined)).text).toBe(
      "This bucket has no video field.",
    );
  });

  it("allows cropping only with enableCrop or forceCrop", () => {
    expect([{ enableCrop: true }, { forceCrop: true }, {}, { enableCrop: "yes" }].map(cropAllowed)).toEqual([true, true, false, false]);
  });
});
