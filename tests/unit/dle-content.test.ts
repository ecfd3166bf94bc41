import { describe, expect, it } from "vitest";
import { mainTexts, mainTextValue, paragraphsOf, translatableFields, translationStatus } from "@screens/dle-content/dle-content";
import { normalizeSchema } from "@core/schema/normalize";

const LOCALES = ["nl", "en"];
const raw = {
  type: "object",
  properties: {
    code: { type: "string", title: "Code", format: "date" },
    title: { type: "string", title: "Title", translate: true },
    subtitle: { type: "string", title: "Subtitle", translate: true },
    introduction: { type: "string", title: "Introduction", renderer: "textarea", translate: true },
    notes: { type: "string", title: "Notes", renderer: "textarea" },
    highlights: { type: "array", title: "Highlights", sortable: true, items: { type: "string", title: "Highlight", translate: true } },
    tags: { type: "array", renderer: "tags", items: { type: "string" } },
    labels: { type: "array", title: "Labels", renderer: "texts" },
    group: { type: "object", title: "Group", properties: { caption: { type: "string", title: "Caption", translate: true } } },
    ageGroup: { type: "string", enum: ["6-9", "10-12"] },
  },
};
const schema = normalizeSchema(raw, LOCALES).schema;

describe("the dle-content screen's main texts", () => {
  it("are the title (the first text), the textareas and the lists of texts, title first", () => {
    expect(mainTexts(schema).map(({ name, role, translated }) => [name, role, translated])).toEqual([
      ["title", "heading", true],
      ["introduction", "paragraphs", true],
      ["notes", "paragraphs", false],
      ["highlights", "list", true],
    ]);
  });

  it("follow the schema's title-key", () => {
    const keyed = normalizeSchema({ ...raw, "title-key": "subtitle" }, LOCALES).schema;
    expect(mainTexts(keyed)[0]).toMatchObject({ name: "subtitle", role: "heading" });
    expect(mainTexts(keyed).map((text) => text.name)).not.toContain("title");
  });

  it("read a locale's value: a translated text's locale, an untranslated text in every locale, a list without blank entries", () => {
    const value = {
      title: { nl: "Titel", en: "" },
      notes: "Same everywhere",
      highlights: [
        { nl: "Een", en: "One" },
        { nl: " ", en: "Two" },
      ],
    };
    const [title, , notes, highlights] = mainTexts(schema);
    expect(mainTextValue(title!, value, "nl")).toBe("Titel");
    expect(mainTextValue(title!, value, "en")).toBe("");
    expect(mainTextValue(notes!, value, "en")).toBe("Same everywhere");
    expect(mainTextValue(highlights!, value, "nl")).toEqual(["Een"]);
    expect(mainTextValue(highlights!, value, "en")).toEqual(["One", "Two"]);
    expect(paragraphsOf("One\ntwo\n\n  \nThree ")).toEqual(["One\ntwo", "Three"]);
  });
});

describe("the translation status", () => {
  const value = {
    title: { nl: "Titel", en: "Title" },
    subtitle: { nl: "", en: "Sub" },
    introduction: { nl: "Inleiding", en: "  " },
    highlights: [{ nl: "Een", en: "" }],
    labels: [{ id: "a", text: { nl: "A", en: "" } }],
    group: { caption: { nl: "", en: "" } },
  };

  it("counts every translated field, list entries included, with form names and labels", () => {
    expect(translatableFields(schema, value)).toEqual([
      { name: "title", label: "Title" },
      { name: "subtitle", label: "Subtitle" },
      { name: "introduction", label: "Introduction" },
      { name: "highlights[0]", label: "Highlights 1" },
      { name: "labels[0].text", label: "Labels 1" },
      { name: "group.caption", label: "Group › Caption" },
    ]);
  });

  it("says per locale how many are filled and which are missing (blanks are missing)", () => {
    expect(translationStatus(schema, value, LOCALES)).toEqual([
      {
        locale: "nl",
        filled: 4,
        total: 6,
        missing: [
          { name: "subtitle.nl", label: "Subtitle" },
          { name: "group.caption.nl", label: "Group › Caption" },
        ],
      },
      {
        locale: "en",
        filled: 2,
        total: 6,
        missing: [
          { name: "introduction.en", label: "Introduction" },
          { name: "highlights[0].en", label: "Highlights 1" },
          { name: "labels[0].text.en", label: "Labels 1" },
          { name: "group.caption.en", label: "Group › Caption" },
        ],
      },
    ]);
    expect(translationStatus(schema, {}, LOCALES).map((status) => [status.filled, status.total])).toEqual([
      [0, 4],
      [0, 4],
    ]);
  });
});
