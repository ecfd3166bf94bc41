import { describe, expect, it } from "vitest";
import { fieldKind } from "@core/form/field-kind";
import { inlineFields, NEW_SUBDOCUMENT, subFormResolver, takeSubDocuments } from "@core/form/subforms";
import { compileBucketSchema } from "@server/content/validator";

/*
 * Inline sub-forms (core/form/subforms.ts): one resolver for the parent and its sub-forms, the same on the page and
 * in the server's pipeline. Each sub-form is validated with the referenced bucket's own validator, its errors under
 * its own field names; the parent's submit goes on only when all are valid.
 */

const parent = compileBucketSchema({
  jsonSchema: {
    type: "object",
    required: ["title", "room"],
    properties: { title: { type: "string", isNotEmpty: true }, room: { type: "string", _ref: "rooms", renderer: "inline" } },
  },
  locales: ["en"],
});
const room = compileBucketSchema({
  jsonSchema: {
    type: "object",
    required: ["name"],
    properties: { name: { type: "string", isNotEmpty: true }, capacity: { type: "integer" }, open: { type: "boolean" } },
  },
  locales: ["en"],
});
const resolve = subFormResolver({
  schema: parent.schema,
  validate: parent.validate,
  messageLocale: "en",
  screens: [],
  subForms: { room: { schema: room.schema, validate: room.validate } },
});

describe("inline sub-forms", () => {
  it("are a field kind only with a collection _ref; elsewhere 'inline' is an attribute", () => {
    expect(fieldKind({ type: "string", _ref: "rooms", renderer: "inline" })).toBe("inline");
    expect(fieldKind({ type: "string", renderer: "inline" })).toBe("text");
    expect(fieldKind({ type: "string", _ref: "b-image", renderer: "inline" })).toBe("image");
    expect(inlineFields(parent.schema)).toEqual([{ field: "room", collection: "rooms" }]);
  });

  it("validates the sub-form with its own bucket's validator, errors under its fields, the parent's beside them", () => {
    expect(resolve({ title: "", room: "", __subforms: { room: { name: " ", capacity: "12" } } })).toEqual({
      error: { "__subforms.room.name": ["This field is required"], title: ["This field is required"] },
    });
  });

  it("answers the parent's document with the sub-documents beside it when all are valid", () => {
    const resolved = resolve({
      title: "Spring",
      room: "",
      __subforms: { room: { __contentId: "", __baseVersionId: "", name: "East", capacity: "40" } },
    });
    expect(resolved.error).toBeUndefined();
    expect(takeSubDocuments(resolved.value!)).toEqual({
      data: { title: "Spring", room: NEW_SUBDOCUMENT },
      subDocuments: [{ field: "room", contentId: undefined, baseVersionId: undefined, data: { name: "East", capacity: 40, open: false } }],
    });
  });

  it("carries an existing sub-document's contentId and base version into the parent's field and the save", () => {
    const id = "6f1c1f55-7a43-4c55-9b0e-1d2b3c4d5e6f";
    const base = "0b1c1f55-7a43-4c55-9b0e-1d2b3c4d5e6f";
    const resolved = resolve({
      title: "Spring",
      room: "tampered",
      __subforms: { room: { __contentId: id, __baseVersionId: base, name: "East" } },
    });
    expect(takeSubDocuments(resolved.value!)).toEqual({
      data: { title: "Spring", room: id },
      subDocuments: [{ field: "room", contentId: id, baseVersionId: base, data: { name: "East", open: false } }],
    });
  });

  it("creates nothing for a new sub-form left at its initial values: a required reference is then missing", () => {
    expect(resolve({ title: "Spring", room: "", __subforms: { room: { __contentId: "", name: "", capacity: "" } } })).toEqual({
      error: { room: ["This field is required"] },
    });
  });

  it("creates nothing for a new sub-form whose list rows nobody touched, whatever their switches show", () => {
    const hall = compileBucketSchema({
      jsonSchema: {
        type: "object",
        properties: {
          doors: {
            type: "array",
            items: { type: "object", required: ["name"], properties: { name: { type: "string" }, open: { type: "boolean" } } },
          },
        },
      },
      locales: ["en"],
    });
    const withHall = subFormResolver({
      schema: parent.schema,
      validate: parent.validate,
      messageLocale: "en",
      screens: [],
      subForms: { room: { schema: hall.schema, validate: hall.validate } },
    });
    expect(withHall({ title: "Spring", room: "", __subforms: { room: { __contentId: "", doors: [{ name: "" }] } } })).toEqual({
      error: { room: ["This field is required"] },
    });
  });

  it("leaves sub-form entries of unknown fields out of the document and out of the payload Conform echoes", () => {
    const payload = { title: "Spring", room: "", __subforms: { other: { deep: [[[["x"]]]] }, room: { name: "East" } } };
    const resolved = resolve(payload);
    expect(payload.__subforms).toEqual({ room: { name: "East" } });
    const listed: Record<string, unknown> = { title: "Spring", __subforms: ["x"] };
    resolve(listed);
    expect(listed).toEqual({ title: "Spring" });
    expect(Object.keys(resolved.value!)).toEqual(["title", "room", "__subforms"]);
    expect(takeSubDocuments(resolved.value!).subDocuments.map((document) => document.field)).toEqual(["room"]);
  });

  it("reports hostile entries as the form's errors before anything else", () => {
    const hostile = subFormResolver({
      schema: parent.schema,
      validate: parent.validate,
      messageLocale: "en",
      screens: [],
      subForms: {},
      hostile: [{ key: "content.stateUnreadable" }],
    });
    expect(hostile({ title: "x" }).error?.[""]).toHaveLength(1);
  });
});
