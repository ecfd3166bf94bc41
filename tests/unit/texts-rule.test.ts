import { describe, expect, it } from "vitest";
import { changedTextIds, schemaHasTextIds } from "@core/content/texts-rule";
import type { JsonSchema } from "@core/schema/normalize";

/*
 * A save reads the version it started from only to compare text ids (server/content/save.ts): schemaHasTextIds says
 * whether there is anything to compare, at any depth changedTextIds walks.
 */
const texts: JsonSchema = { type: "array", renderer: "texts", items: { type: "object" } };

describe("schemaHasTextIds", () => {
  it("finds a text array at the top, in an object and in a list's rows", () => {
    expect(schemaHasTextIds({ type: "object", properties: { labels: texts } })).toBe(true);
    expect(schemaHasTextIds({ type: "object", properties: { intro: { type: "object", properties: { labels: texts } } } })).toBe(true);
    expect(
      schemaHasTextIds({
        type: "object",
        properties: { rooms: { type: "array", items: { type: "object", properties: { labels: texts } } } },
      }),
    ).toBe(true);
  });

  it("answers false when there is none, and changedTextIds is then null whatever the values", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: {
        title: { type: "string" },
        rows: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } },
      },
    };
    expect(schemaHasTextIds(schema)).toBe(false);
    expect(changedTextIds(schema, { rows: [{ id: "a" }] }, { title: "x", rows: [{ id: "b" }, { id: "c" }] })).toBeNull();
  });
});
