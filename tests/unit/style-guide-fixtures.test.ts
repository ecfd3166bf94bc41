import { describe, expect, it } from "vitest";
import { fieldSpecimens } from "~/components/style-guide/field-specimens.server";
import { FIELD_KINDS, fieldKind } from "@core/form/field-kind";
import type { JsonSchema } from "@core/schema/normalize";
import { compileBucketSchema } from "@server/content/validator";

/* The style guide's samples (app/components/style-guide/field-fixtures.ts) stay true to their kinds. */

describe.each(["en", "nl"] as const)("style guide samples in %s", (locale) => {
  const specimens = fieldSpecimens(locale, compileBucketSchema);

  it("has one sample per field kind, rendered by that kind", () => {
    expect(specimens.map((specimen) => specimen.kind)).toEqual([...FIELD_KINDS]);
    for (const { kind, schema } of specimens) {
      expect(fieldKind((schema.properties as Record<string, JsonSchema>)[kind]!), kind).toBe(kind);
    }
  });

  it("fills every sample with a value its schema accepts, and answers the invalid one with a message under the field", () => {
    for (const { kind, schema, filled, errorResult } of specimens) {
      const { validate } = compileBucketSchema({ jsonSchema: schema, locales: ["en", "nl"] });
      expect(validate!(filled), `${kind}: ${JSON.stringify(validate!.errors)}`).toBe(true);
      const messages = Object.entries(errorResult.error ?? {}).filter(([name]) => name.startsWith(kind));
      expect(messages.length, kind).toBeGreaterThan(0);
      expect(errorResult.error?.[""], `${kind}: no form-level errors`).toBeUndefined();
    }
  });
});
