import type { Queryable } from "@server/db/client";
import type { ScreenTable } from "@core/content/screen-table";
import { checkBucketDefinition, changedFields, type DefinitionField } from "./bucket-admin";
import { findBucketBySlug, type Bucket } from "./buckets";
import { bucketDefinitionSchema, type BucketDefinition } from "@core/content/bucket-definition";
import { cleanBucketNames } from "@core/content/bucket-name";
import type { Message } from "@core/messages";
import { parseJsonText } from "@core/schema/json-text";

/*
 * A bucket's definition exported as a file, and such a file checked before it is imported (saveBucket saves it):
 * /settings/buckets/{slug}/export and /settings/buckets/import.
 */

/** The export: the definition as the import reads it. */
export function exportDefinition(bucket: Bucket): BucketDefinition {
  const { slug, name, names, singleton, private: isPrivate, collectionName, locales, screen, jsonSchema } = bucket;
  return { slug, name, names: cleanBucketNames(names), singleton, private: isPrivate, collectionName, locales, screen, jsonSchema };
}

/**
 * An imported definition's text: JSON (an error names its line and column), then the definition's shape (its field
 * errors as catalogue keys by field), then the same checks as the form.
 */
export async function checkImport(
  db: Queryable,
  text: string,
  screens: ScreenTable,
): Promise<
  { ok: true; definition: BucketDefinition; existing: Bucket | null; changes: DefinitionField[] } | { ok: false; errors: Message[] }
> {
  // The schema sits one level inside the definition: the text may nest one level more than a schema.
  const parsed = parseJsonText(text, { outerLevels: 1 });
  if (!parsed.ok) return { ok: false, errors: [parsed.error] };
  const shaped = bucketDefinitionSchema.safeParse(parsed.value);
  if (!shaped.success) {
    return {
      ok: false,
      errors: shaped.error.issues.map((issue) => ({
        key: "adminBuckets.import.fieldError",
        params: {
          field: issue.path.join(".") || "—",
          problem: issue.message.startsWith("adminBuckets.")
            ? { key: issue.message as Message["key"] }
            : { key: "adminBuckets.import.badValue" },
        },
      })),
    };
  }
  const existing = await findBucketBySlug(db, shaped.data.slug);
  const checked = await checkBucketDefinition(
    db,
    { ...shaped.data, jsonSchemaText: JSON.stringify(shaped.data.jsonSchema) },
    existing,
    screens,
  );
  if (!checked.ok) {
    const fieldMessages: Message[] = Object.entries(checked.fieldErrors).flatMap(([field, keys]) =>
      keys.map((key) => ({ key: "adminBuckets.import.fieldError" as const, params: { field, problem: { key: key as Message["key"] } } })),
    );
    return { ok: false, errors: [...fieldMessages, ...checked.schemaErrors] };
  }
  return { ok: true, definition: checked.definition, existing, changes: existing ? changedFields(existing, checked.definition) : [] };
}
