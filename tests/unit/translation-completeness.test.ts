import { describe, expect, it } from "vitest";
import { translationCompleteness } from "@core/content/translation-completeness";
import { normalizeSchema } from "@core/schema/normalize";

/* Issue 34: the one count of a document's translations per locale, for the stored schema and the normalised one. */

const LOCALES = ["en", "nl"];
const raw = {
  type: "object",
  properties: {
    code: { type: "string" },
    title: { type: "string", title: "Title", translate: true },
    room: { type: "object", title: "Room", properties: { name: { type: "string", title: "Name", translate: true } } },
    steps: {
      type: "array",
      title: "Steps",
      items: { type: "object", properties: { text: { type: "string", title: "Text", translate: true }, n: { type: "integer" } } },
    },
    labels: { type: "array", title: "Labels", renderer: "texts" },
    year: { type: "integer", translate: true },
  },
};

describe("translation completeness", () => {
  const data = {
    code: "A-1",
    title: { en: "Sea", nl: "  \n" },
    steps: [{ text: { en: "One", nl: "Een" } }, { text: { en: "Two" } }],
    labels: [{ id: "x", text: { en: "Label", nl: "Etiket" } }],
    year: { en: 1881, nl: null },
  };

  it("counts every translated field through objects (present or not) and the entries lists have; blanks are missing", () => {
    const counts = translationCompleteness(raw, data, LOCALES);
    expect(counts.map(({ locale, filled, total }) => ({ locale, filled, total }))).toEqual([
      { locale: "en", filled: 5, total: 6 },
      { locale: "nl", filled: 2, total: 6 },
    ]);
    expect(counts[1]?.missing).toEqual([
      { path: ["title"], label: "Title" },
      { path: ["room", "name"], label: "Room › Name" },
      { path: ["steps", 1, "text"], label: "Steps 2 › Text" },
      { path: ["year"], label: "year" },
    ]);
  });

  it("answers the same for the normalised schema as for the stored one", () => {
    const normalised = normalizeSchema(raw, LOCALES).schema;
    expect(translationCompleteness(normalised, data, LOCALES)).toEqual(translationCompleteness(raw, data, LOCALES));
  });

  it("counts a document without values: its fields outside lists, all missing", () => {
    expect(translationCompleteness(raw, {}, LOCALES).map(({ filled, total }) => [filled, total])).toEqual([
      [0, 3],
      [0, 3],
    ]);
    expect(translationCompleteness({ type: "object", properties: { a: { type: "string" } } }, { a: "x" }, LOCALES)).toEqual([
      { locale: "en", filled: 0, total: 0, missing: [] },
      { locale: "nl", filled: 0, total: 0, missing: [] },
    ]);
  });
});
