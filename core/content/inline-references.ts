import type { JsonSchema } from "@core/schema/normalize";
import { isPlainObject } from "@core/plain-object";
import { isUuid } from "@core/ids";
import { fieldKind } from "@core/form/field-kind";

/*
 * The inline sub-documents a document holds (`renderer: "inline"` with a collection `_ref`): they belong to it, so
 * a duplicate of the document gets copies of them (server/content/duplicate.ts). The form renders only a top-level
 * property as an inline sub-form, but a bucket saved before the dialect's check may have one inside an object or a
 * list: every place the schema describes counts.
 */

/** A place in a document that holds an inline sub-document: the form field's name, the collection, its contentId. */
export interface InlineReference {
  name: string;
  collection: string;
  contentId: string;
}

/** The collection of an inline reference's schema (a list's items count too), or null. */
function inlineCollection(node: JsonSchema): string | null {
  return fieldKind(node) === "inline" && typeof node._ref === "string" ? node._ref : null;
}

/**
 * The value with each inline reference replaced by what `replace` answers for it (the same value for undefined);
 * a value without any comes back as it is (the same object).
 */
export function mapInlineReferences(
  schema: unknown,
  value: unknown,
  replace: (reference: InlineReference) => string | undefined,
  name = "",
  depth = 0,
): unknown {
  if (!isPlainObject(schema) || depth > 64) return value;
  const node = schema as JsonSchema;
  const collection = inlineCollection(node);
  if (collection) {
    if (typeof value !== "string" || !isUuid(value)) return value;
    return replace({ name, collection, contentId: value.toLowerCase() }) ?? value;
  }
  if (Array.isArray(value)) {
    const items = value.map((item, index) => mapInlineReferences(node.items, item, replace, `${name}[${index}]`, depth + 1));
    return items.every((item, index) => item === value[index]) ? value : items;
  }
  if (!isPlainObject(value) || !isPlainObject(node.properties)) return value;
  let changed: Record<string, unknown> | null = null;
  for (const [key, child] of Object.entries(node.properties)) {
    if (!Object.hasOwn(value, key)) continue;
    const next = mapInlineReferences(child, value[key], replace, name ? `${name}.${key}` : key, depth + 1);
    if (next !== value[key]) (changed ??= { ...value })[key] = next;
  }
  return changed ?? value;
}

/** Every inline reference a document holds, in the schema's order. */
export function inlineReferences(schema: unknown, value: unknown): InlineReference[] {
  const found: InlineReference[] = [];
  mapInlineReferences(schema, value, (reference) => {
    found.push(reference);
    return undefined;
  });
  return found;
}
