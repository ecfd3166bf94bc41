import { describe, expect, it } from "vitest";
import { xliffFile, xliffHead, XLIFF_TAIL } from "@server/content/xliff-build";
import { parseXliff, XliffError } from "@server/content/xliff-parse";
import { translationUnits, unitId } from "@core/content/translation-units";

/* Issue 34: XLIFF 2.0 written piece by piece and read back, and what the reader refuses before it reads anything. */

const bytes = (text: string) => new TextEncoder().encode(text);

function reason(text: string | Uint8Array) {
  try {
    parseXliff(typeof text === "string" ? bytes(text) : text);
  } catch (error) {
    if (error instanceof XliffError) return error.reason;
    throw error;
  }
  throw new Error("the file was read");
}

const wrapped = (units: string, root = `xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="nl"`) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<xliff ${root}><file id="f1">${units}</file></xliff>`;

describe("XLIFF 2.0 out and back", () => {
  it("writes a valid document whose texts, notes aside, read back exactly", () => {
    const tricky = `Fish & "chips" <b>bold</b>\r\nline two\ttab \u0001 end 😀`;
    const text =
      xliffHead("en", "nl") +
      xliffFile({
        id: "5e0b3c9e-1b7e-4a8e-9f7e-2f9f3a0c1d2e",
        original: "artworks/5e0b3c9e",
        notes: [{ category: "title", text: "The <beach>" }],
        units: [
          { id: "title", name: "title", notes: [{ category: "description", text: 'Shown "big" & bold' }], source: tricky, target: null },
          { id: "steps.0.text", name: "steps/0/text", notes: [], source: "  spaced  ", target: "  ruim  " },
        ],
      }) +
      XLIFF_TAIL;
    expect(text).toContain(
      `<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" xml:space="preserve" srcLang="en" trgLang="nl">`,
    );
    expect(text).toContain(`<note category="description">Shown "big" &amp; bold</note>`);
    expect(text).toContain(`<cp hex="0001"/>`);
    expect(text).toContain(`<segment state="initial">`);
    expect(text).toContain(`<segment state="translated">`);
    expect(parseXliff(bytes(text))).toEqual({
      srcLang: "en",
      trgLang: "nl",
      files: [
        {
          id: "5e0b3c9e-1b7e-4a8e-9f7e-2f9f3a0c1d2e",
          units: [
            { id: "title", source: tricky, target: null, markup: false },
            { id: "steps.0.text", source: "  spaced  ", target: "  ruim  ", markup: false },
          ],
        },
      ],
    });
  });

  it("joins a unit's segments and ignorables in order, reads groups, CDATA and references, flags inline codes", () => {
    const parsed = parseXliff(
      bytes(
        wrapped(`<group id="g"><unit id="a"><segment><source>One. </source><target>Een. </target></segment><ignorable><source> </source></ignorable>
        <segment><source>Two &amp; &#x54;hree&#33;</source><target><![CDATA[Twee & <drie>!]]></target></segment></unit></group>
        <unit id="b"><segment><source>Half</source><target>Half</target></segment><segment><source> done</source></segment></unit>
        <unit id="c"><segment><source>Bold <pc id="1">text</pc></source><target>Vet <pc id="1">tekst</pc></target></segment></unit>`),
      ),
    );
    expect(parsed.files[0]?.units).toEqual([
      { id: "a", source: "One.  Two & Three!", target: "Een.  Twee & <drie>!", markup: false },
      { id: "b", source: "Half done", target: null, markup: false },
      { id: "c", source: "Bold ", target: "Vet ", markup: true },
    ]);
  });

  it("refuses a DOCTYPE or entity declarations before parsing (no XXE, no entity expansion)", () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>${wrapped("<unit id='a'><segment><source>&lol2;</source></segment></unit>").replace(/^<\?xml[^>]*>/, "")}`;
    expect(reason(bomb)).toEqual({ key: "translations.doctype" });
    expect(reason(`<?xml version="1.0"?><!DOCTYPE x SYSTEM "file:///etc/passwd"><x/>`)).toEqual({ key: "translations.doctype" });
  });

  it("says where XML is malformed, and what is not XLIFF 2.0", () => {
    expect(reason(`<xliff version="2.0"><file>`)).toMatchObject({ key: "translations.malformed", params: { line: 1 } });
    expect(reason(wrapped(`<unit id="a"><segment><source>Fish & chips</source></segment></unit>`))).toMatchObject({
      key: "translations.malformed",
    });
    expect(reason(wrapped(`<unit id="a"><segment><source>Nul &#0; &#x110000;</source></segment></unit>`))).toEqual({
      key: "translations.badReference",
      params: { text: "&#0;" },
    });
    expect(reason(`<html><body/></html>`)).toEqual({ key: "translations.notXliff" });
    expect(reason(`<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2"><file/></xliff>`)).toEqual({
      key: "translations.notXliff",
    });
    expect(reason(wrapped("", `xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.1" srcLang="en"`))).toEqual({
      key: "translations.notVersion2",
      params: { version: "2.1" },
    });
    expect(reason(new Uint8Array([0x3c, 0x78, 0xff, 0xfe, 0xfd]))).toEqual({ key: "translations.notUtf8" });
  });

  it("reads UTF-16 with its byte-order mark", () => {
    const text = wrapped(`<unit id="a"><segment><source>Zee</source><target>Sea</target></segment></unit>`);
    const utf16 = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from(text, "utf16le"))]);
    expect(parseXliff(utf16).files[0]?.units[0]).toMatchObject({ source: "Zee", target: "Sea" });
  });
});

describe("translation units", () => {
  const schema = {
    type: "object",
    properties: {
      title: { type: "string", title: "Title", translate: true, maxLength: 20, description: "On the label" },
      image: { type: "string", translate: true, _ref: "b-image" },
      "odd name/x": { type: "string", translate: true },
      steps: {
        type: "array",
        title: "Steps",
        items: { type: "object", properties: { text: { type: "string", title: "Text", translate: true } } },
      },
      labels: { type: "array", title: "Labels", renderer: "texts" },
    },
  };
  const data = {
    title: { en: "Sea", nl: "Zee" },
    image: { en: "0b6f5c1e-0000-4000-8000-000000000000" },
    "odd name/x": { en: "Odd" },
    steps: [{ text: { en: "First" } }, { text: { en: "Second", nl: "Tweede" } }],
    labels: [{ id: "a", text: { en: "Label" } }],
  };

  it("are the plain translated texts, with ids that are XML names and stable", () => {
    const units = translationUnits(schema, data, "en", "nl");
    expect(
      units.map(({ id, pointer, label, source, target, maxLength, description }) => ({
        id,
        pointer,
        label,
        source,
        target,
        maxLength,
        description,
      })),
    ).toEqual([
      { id: "title", pointer: "title", label: "Title", source: "Sea", target: "Zee", maxLength: 20, description: "On the label" },
      {
        id: "odd_20_name_2f_x",
        pointer: "odd name~1x",
        label: "odd name/x",
        source: "Odd",
        target: "",
        maxLength: null,
        description: null,
      },
      {
        id: "steps.0.text",
        pointer: "steps/0/text",
        label: "Steps 1 › Text",
        source: "First",
        target: "",
        maxLength: null,
        description: null,
      },
      {
        id: "steps.1.text",
        pointer: "steps/1/text",
        label: "Steps 2 › Text",
        source: "Second",
        target: "Tweede",
        maxLength: null,
        description: null,
      },
      { id: "labels.0.text", pointer: "labels/0/text", label: "Labels 1", source: "Label", target: "", maxLength: null, description: null },
    ]);
    expect(translationUnits(schema, data, "en", "nl").map((unit) => unit.id)).toEqual(units.map((unit) => unit.id));
    expect(unitId(["", "_", "é"])).toBe("_._5f_._e9_");
  });
});
