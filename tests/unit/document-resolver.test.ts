import { parse } from "@conform-to/react";
import { describe, expect, it } from "vitest";
import { removeHostileEntries } from "@core/form/hostile";
import { checkDocument, documentResolver } from "@core/form/resolve";
import type { Message } from "@core/messages";
import { PENDING_UPLOAD_FIELD } from "@core/media/pending";
import { compileBucketSchema } from "@server/content/validator";

/*
 * One validation for the page, the modal (core/form/resolve.ts documentResolver over a form's payload) and the
 * JSON API (checkDocument over a JSON document): the same messages under the same field names.
 */

const { schema, validate } = compileBucketSchema({
  jsonSchema: {
    type: "object",
    required: ["name"],
    properties: { name: { type: "string" }, year: { type: "integer" }, bio: { type: "string" } },
  },
  locales: ["en"],
});
const resolve = (payload: Record<string, unknown>, options: { hostile?: Message[]; only?: string[] } = {}) =>
  documentResolver({ schema: schema, validate, messageLocale: "en", ...options })(payload);

describe("documentResolver (the page and the modal)", () => {
  it("reports hostile entries taken out of the post as the form's errors, before anything else", () => {
    const formData = new FormData();
    formData.append("name", "");
    formData.append("rooms[0].__proto__.polluted", "1");
    formData.append("__intent__", "{not json");
    const hostile = removeHostileEntries(formData);
    expect([...formData.keys()]).toEqual(["name"]);
    expect(resolve({ name: "" }, { hostile })).toEqual({
      error: { "": ["Forbidden property name '__proto__' in rooms[0]", "The form's list action could not be read."] },
    });
  });

  it("keeps only the shown properties' errors in the partial form", () => {
    expect(resolve({ bio: "x".repeat(70_000) }, { only: ["bio"] })).toEqual({
      error: { bio: ["This text is too long: at most 65536 characters"] },
    });
    expect(resolve({ bio: "Painter" }, { only: ["bio"] })).toEqual({ value: { bio: "Painter" } });
    expect(resolve({ bio: "Painter" })).toEqual({ error: { name: ["This field is required"] } });
  });

  it("leaves the pending upload tokens out of the document", () => {
    expect(resolve({ name: "A", [PENDING_UPLOAD_FIELD]: "token" })).toEqual({ value: { name: "A" } });
  });
});

describe("checkDocument (the JSON API) and documentResolver agree", () => {
  /** Errors as a form shows them: under the fields it renders, the others above them (""). */
  const shown = (errors: Record<string, string[]>) => {
    const out: Record<string, string[]> = {};
    for (const [name, messages] of Object.entries(errors)) {
      const target = ["name", "year", "bio"].includes(name) ? name : "";
      out[target] = [...new Set([...(out[target] ?? []), ...messages])];
    }
    return out;
  };
  const formErrors = (entries: Array<[string, string]>) => {
    const formData = new FormData();
    for (const [name, value] of entries) formData.append(name, value);
    const hostile = removeHostileEntries(formData);
    const submission = parse(formData, { resolve: documentResolver({ schema: schema, validate, messageLocale: "en", hostile }) });
    return submission.status === "error" ? (submission.error as Record<string, string[]>) : {};
  };

  it.each<[string, string, Array<[string, string]>, 400 | 422]>([
    ["a required field missing", "{}", [["name", ""]], 422],
    [
      "a wrong type",
      '{"name":"A","year":"nineteen"}',
      [
        ["name", "A"],
        ["year", "nineteen"],
      ],
      422,
    ],
    ["a too long text", `{"name":"${"x".repeat(70_000)}"}`, [["name", "x".repeat(70_000)]], 422],
    [
      "a prototype key",
      '{"name":"A","constructor":{"prototype":{"polluted":true}}}',
      [
        ["name", "A"],
        ["constructor.prototype.polluted", "1"],
      ],
      400,
    ],
    [
      "an unknown property",
      '{"name":"A","colour":"red"}',
      [
        ["name", "A"],
        ["colour", "red"],
      ],
      422,
    ],
  ])("on %s", (_case, json, entries, status) => {
    const checked = checkDocument(JSON.parse(json), schema, validate!, "en");
    expect(checked).toMatchObject({ ok: false, status });
    if (checked.ok) return;
    expect(shown(formErrors(entries))).toEqual(shown(checked.errors.byField));
  });

  it("answers the JSON API's message: the validator's refusal, or the shape's problem", () => {
    expect(checkDocument({ name: 1 }, schema, validate!, "en")).toMatchObject({ status: 422, message: "The content is not valid" });
    expect(checkDocument({ name: "x".repeat(70_000) }, schema, validate!, "en")).toMatchObject({
      status: 422,
      message: "This text is too long: at most 65536 characters",
    });
    expect(checkDocument([], schema, validate!, "en")).toMatchObject({ ok: false, status: 400, message: "content must be a JSON object" });
    expect(checkDocument({ name: "A", year: 1911 }, schema, validate!, "en")).toEqual({ ok: true, value: { name: "A", year: 1911 } });
  });
});
