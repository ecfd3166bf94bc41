import { describe, expect, it } from "vitest";
import {
  deliveryReferences,
  hasValue,
  localeChain,
  shapeDocument,
  type DeliveryMedia,
  type DeliverySource,
  type ShapeLookup,
} from "@core/delivery/shape";
import { normalizeSchema } from "@core/schema/normalize";

/* core/delivery/shape.ts: locale projection with fallbacks, references to a depth with cycles cut, media objects. */

const ID = {
  a: "00000000-0000-4000-8000-00000000000a",
  b: "00000000-0000-4000-8000-00000000000b",
  c: "00000000-0000-4000-8000-00000000000c",
  m: "00000000-0000-4000-8000-0000000000ee",
};

const schema = normalizeSchema(
  {
    type: "object",
    properties: {
      title: { type: "string", translate: true },
      body: { type: "string", translate: true },
      next: { type: "string", _ref: "pages" },
      picture: { type: "string", _ref: "b-image" },
      localPicture: { type: "string", _ref: "b-image", translate: true },
      sections: {
        type: "array",
        items: { type: "object", properties: { heading: { type: "string", translate: true }, link: { type: "string", _ref: "pages" } } },
      },
      texts: { type: "array", renderer: "texts" },
    },
  },
  ["nl", "en", "de"],
).schema;

const bucket = { slug: "pages", locales: ["nl", "en", "de"], schema };
const source = (contentId: string, data: Record<string, unknown>): DeliverySource => ({
  bucket,
  document: {
    contentId,
    versionId: `${contentId.slice(0, -1)}f`,
    createdAt: "2026-01-01T00:00:00.000000Z",
    updatedAt: "2026-01-02T00:00:00.000000Z",
    data,
  },
});

const media: DeliveryMedia = {
  contentId: ID.m,
  kind: "image",
  mimetype: "image/png",
  filename: "x.png",
  size: 10,
  width: 2,
  height: 1,
  url: "https://cms.example/x",
  renditions: { original: { url: "https://cms.example/x", mimetype: "image/png" } },
  stills: [],
  thumb: null,
  alt: {},
  caption: {},
  credits: null,
};

const a = source(ID.a, {
  title: { nl: "Welkom", en: "Welcome", de: "" },
  body: { de: "Nur Deutsch" },
  next: ID.b,
  picture: ID.m,
  localPicture: { en: ID.m },
  sections: [
    { heading: { en: "One" }, link: ID.a },
    { heading: { nl: "Twee", en: "Two" }, link: ID.c },
  ],
  texts: [{ id: "t1", text: { nl: "", en: "" } }],
});
const b = source(ID.b, { title: { en: "Second" }, next: ID.a });
const lookup: ShapeLookup = {
  document: (collection, contentId) => (collection === "pages" ? { [ID.a]: a, [ID.b]: b }[contentId] : undefined),
  media: (contentId) => (contentId === ID.m ? media : undefined),
};

describe("locale chains", () => {
  it("puts the locale first, then the fallback list or the bucket's order, each once", () => {
    expect(localeChain({ locale: "en", fallback: null }, ["nl", "en", "de"])).toEqual(["en", "nl", "de"]);
    expect(localeChain({ locale: "en", fallback: ["de", "en", "de"] }, ["nl", "en", "de"])).toEqual(["en", "de"]);
    expect(localeChain({ locale: "nl", fallback: [] }, ["nl", "en"])).toEqual(["nl"]);
  });

  it("counts absent, null, empty strings and empty lists as no value", () => {
    expect([undefined, null, "", []].map(hasValue)).toEqual([false, false, false, false]);
    expect([0, false, "x", [1], {}].map(hasValue)).toEqual([true, true, true, true, true]);
  });
});

describe("shapeDocument", () => {
  it("without a locale answers the stored per-locale objects, media as objects, references as ids", () => {
    const doc = shapeDocument(a, { locale: null, populate: 0 }, lookup);
    expect(doc).toMatchObject({ contentId: ID.a, bucket: "pages", locale: null, fallbacks: {} });
    expect(doc.data.title).toEqual({ nl: "Welkom", en: "Welcome", de: "" });
    expect(doc.data.localPicture).toEqual({ en: media });
    expect(doc.data.picture).toEqual(media);
    expect(doc.data.next).toBe(ID.b);
  });

  it("with a locale answers plain values and lists each field that fell back, with the locale it came from", () => {
    const doc = shapeDocument(a, { locale: { locale: "nl", fallback: null }, populate: 0 }, lookup);
    expect(doc.locale).toBe("nl");
    expect(doc.data).toMatchObject({ title: "Welkom", body: "Nur Deutsch", localPicture: media });
    expect(doc.data.sections).toEqual([
      { heading: "One", link: ID.a },
      { heading: "Twee", link: ID.c },
    ]);
    expect(doc.data.texts).toEqual([{ id: "t1", text: null }]);
    expect(doc.fallbacks).toEqual({ body: "de", localPicture: "en", "sections[0].heading": "en", "texts[0].text": null });
  });

  it("a value no locale of the chain has is null, listed with null", () => {
    const doc = shapeDocument(a, { locale: { locale: "de", fallback: [] }, populate: 0 }, lookup);
    expect(doc.data.title).toBeNull();
    expect(doc.fallbacks.title).toBeNull();
    expect(doc.data.body).toBe("Nur Deutsch");
  });

  it("resolves references to the depth asked, cutting documents already on the path and leaving unknown ones as ids", () => {
    const one = shapeDocument(a, { locale: { locale: "en", fallback: null }, populate: 1 }, lookup);
    const next = one.data.next as ReturnType<typeof shapeDocument>;
    expect(next).toMatchObject({ contentId: ID.b, data: { title: "Second", next: ID.a } });
    const sections = one.data.sections as Array<{ link: unknown }>;
    expect(sections[0]?.link).toBe(ID.a); // itself
    expect(sections[1]?.link).toBe(ID.c); // not loaded (or not readable)
    const three = shapeDocument(a, { locale: null, populate: 3 }, lookup);
    expect((three.data.next as ReturnType<typeof shapeDocument>).data.next).toBe(ID.a);
    // From b, a is resolved (b is the top): a's own link to b is then cut.
    const fromB = shapeDocument(b, { locale: null, populate: 3 }, lookup);
    const resolvedA = fromB.data.next as ReturnType<typeof shapeDocument>;
    expect(resolvedA.contentId).toBe(ID.a);
    expect(resolvedA.data.next).toBe(ID.b);
  });

  it("names the paths of references it could not resolve at a depth asked for, not the cycles it cut", () => {
    const one = shapeDocument(a, { locale: { locale: "en", fallback: null }, populate: 1 }, lookup);
    expect(one.unresolved).toEqual(["sections[1].link"]);
    expect((one.data.next as ReturnType<typeof shapeDocument>).unresolved).toBeUndefined();
    expect(shapeDocument(a, { locale: null, populate: 0 }, lookup).unresolved).toBeUndefined();
    expect(shapeDocument(b, { locale: null, populate: 1 }, lookup).unresolved).toBeUndefined();
  });

  it("leaves a media reference it cannot resolve as {contentId, missing: true}", () => {
    const doc = shapeDocument(source(ID.c, { picture: ID.b }), { locale: null, populate: 0 }, lookup);
    expect(doc.data.picture).toEqual({ contentId: ID.b, missing: true });
  });

  it("does not change the stored data", () => {
    const before = JSON.stringify(a.document.data);
    shapeDocument(a, { locale: { locale: "nl", fallback: null }, populate: 2 }, lookup);
    expect(JSON.stringify(a.document.data)).toBe(before);
  });
});

describe("deliveryReferences", () => {
  it("collects collection references by collection and media ids, inside lists and translated values", () => {
    const found = deliveryReferences(schema, a.document.data);
    expect(found.documents).toEqual(new Map([["pages", new Set([ID.b, ID.a, ID.c])]]));
    expect(found.media).toEqual(new Set([ID.m]));
  });

  it("ignores values that are no uuids", () => {
    const found = deliveryReferences(schema, { next: "not-an-id", picture: 12 });
    expect(found.documents.size).toBe(0);
    expect(found.media.size).toBe(0);
  });
});
