import type { JsonSchema } from "@core/schema/normalize";
import { isPlainObject } from "@core/plain-object";

export const TEXT_IDS_MESSAGE = { key: "content.textIds" } as const;

const idsOf = (value: unknown) => (Array.isArray(value) ? value.map((entry) => (isPlainObject(entry) ? entry.id : undefined)) : []);

/**
 * Spec §6: only admin or dev may edit the ids of a translated text array or
 * add and remove its entries; others edit the texts. Returns the field name
 * (`labels`, `intro.labels`) of the first text array whose ids differ from
 * the version the save started from (none for a new document), else null.
 * Walks objects; a text array inside a list row is compared row by row.
 */
export function changedTextIds(schema: JsonSchema, before: unknown, after: unknown, name = ""): string | null {
  if (schema.renderer === "texts") {
    const previous = idsOf(before);
    const next = idsOf(after);
    return previous.length === next.length && previous.every((id, index) => id === next[index]) ? null : name;
  }
  if (isPlainObject(schema.properties)) {
    for (const [key, child] of Object.entries(schema.properties as Record<string, JsonSchema>)) {
      const childName = name ? `${name}.${key}` : key;
      const found = changedTextIds(
        child,
        isPlainObject(before) ? before[key] : undefined,
        isPlainObject(after) ? after[key] : undefined,
        childName,
      );
      if (found !== null) return found;
    }
  }
  if (isPlainObject(schema.items) && Array.isArray(after)) {
    for (const [index, row] of after.entries()) {
      const found = changedTextIds(schema.items, Array.isArray(before) ? before[index] : undefined, row, `${name}[${index}]`);
      if (found !== null) return found;
    }
  }
  return null;
}

const textIdsIn = new WeakMap<JsonSchema, boolean>();

/** Whether the schema has a text array at all (else changedTextIds is null whatever the values): remembered per schema. */
export function schemaHasTextIds(schema: JsonSchema): boolean {
  let found = textIdsIn.get(schema);
  if (found === undefined) {
    found =
      schema.renderer === "texts" ||
      (isPlainObject(schema.properties) &&
        Object.values(schema.properties as Record<string, JsonSchema>).some((child) => isPlainObject(child) && schemaHasTextIds(child))) ||
      (isPlainObject(schema.items) && schemaHasTextIds(schema.items));
    textIdsIn.set(schema, found);
  }
  return found;
}
