import { describe, expect, it } from "vitest";
import { componentNames, deliveryOpenApi } from "@core/delivery/openapi";
import { normalizeSchema } from "@core/schema/normalize";

describe("the delivery API's OpenAPI document", () => {
  it("names components after slugs in PascalCase, unique, never a shared component's name", () => {
    const names = componentNames([
      { slug: "audio-guide" },
      { slug: "audio_guide" },
      { slug: "2024-rooms" },
      { slug: "media" },
      { slug: "audio-guide-localized" },
      { slug: "bucket-list" },
    ]);
    expect([...names.values()]).toEqual(["AudioGuide", "AudioGuide2", "B2024Rooms", "Media2", "AudioGuideLocalized2", "BucketList2"]);
  });

  it("gives every operation a unique id, whatever the slugs", () => {
    const bucket = (slug: string) => ({
      slug,
      name: slug,
      singleton: true,
      collectionName: slug,
      locales: ["en"],
      schema: { type: "object", properties: {} },
    });
    const document = deliveryOpenApi(["buckets", "media", "bucket"].map(bucket), {
      title: "t",
      version: "1",
      serverUrl: "https://cms.example",
    });
    const ids = Object.values(document.paths as Record<string, { get: { operationId: string } }>).map((path) => path.get.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("keeps the standard keywords of a schema and leaves out the form's own", () => {
    const schema = normalizeSchema(
      {
        type: "object",
        required: ["title"],
        properties: {
          title: { type: "string", translate: true, maxLength: 10, renderer: "textarea", note: "x", "x-indent": 1 },
          choice: { type: "string", enum: { $data: "1/other" } },
          picture: { type: "string", _ref: "b-image", minWidth: 10 },
        },
      },
      ["en", "nl"],
    ).schema;
    const document = deliveryOpenApi(
      [{ slug: "guide", name: "Guide", singleton: true, collectionName: "guide", locales: ["en", "nl"], schema }],
      { title: "t", version: "1", serverUrl: "https://cms.example" },
    );
    const schemas = (document.components as { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> })
      .schemas;
    expect(schemas.Guide?.properties.title).toEqual({
      type: "object",
      properties: { en: { type: "string", title: "en", maxLength: 10 }, nl: { type: "string", title: "nl", maxLength: 10 } },
      required: ["en", "nl"],
      additionalProperties: false,
    });
    expect(schemas.GuideLocalized?.properties.title).toEqual({ anyOf: [{ type: "string", maxLength: 10 }, { type: "null" }] });
    expect(schemas.Guide?.properties.choice).toEqual({ type: "string" });
    expect(schemas.Guide?.properties.picture).toEqual({
      anyOf: [{ $ref: "#/components/schemas/Media" }, { $ref: "#/components/schemas/MissingMedia" }],
    });
    expect(schemas.Guide?.required).toEqual(["title"]);
    expect(Object.keys(document.paths as object)).toContain("/api/v1/delivery/buckets/guide/singleton");
  });
});
