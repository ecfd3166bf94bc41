import { fieldKind } from "@core/form/field-kind";
import { isPlainObject } from "@core/plain-object";
import type { JsonSchema } from "@core/schema/normalize";

/*
 * Trends (the trend screen, docs/screens.md): a trend document names other trends through its trend-select
 * fields (`renderer: "trend-select"`, one trend or a list of related trends). A trend related to itself means
 * nothing to a visitor, so every save refuses it (core/content/document-rules.ts).
 */

/** The document's own collection is what a trend-select field names: its `_ref`, or its items' `_ref`. */
function trendCollection(property: JsonSchema): string | null {
  const kind = fieldKind(property);
  if (kind === "trendSelect") return typeof property._ref === "string" ? property._ref : null;
  if (kind === "trendList" && isPlainObject(property.items)) return typeof property.items._ref === "string" ? property.items._ref : null;
  return null;
}

/**
 * The first top-level trend-select field of a document that names the document itself (a field of its own
 * collection holding its own contentId), or null.
 */
export function selfReferencingField(
  schema: JsonSchema,
  collection: string,
  contentId: string,
  data: Record<string, unknown>,
): string | null {
  const properties = isPlainObject(schema.properties) ? (schema.properties as Record<string, JsonSchema>) : {};
  const own = contentId.toLowerCase();
  const names = (value: unknown) => typeof value === "string" && value.toLowerCase() === own;
  for (const [name, property] of Object.entries(properties)) {
    if (trendCollection(property) !== collection) continue;
    const value = data[name];
    if (Array.isArray(value) ? value.some(names) : names(value)) return name;
  }
  return null;
}

/** The trend options a document may choose: every trend but itself. */
export const otherTrends = <T extends { value: string }>(options: readonly T[], documentId: string | null | undefined): T[] =>
  documentId ? options.filter((option) => option.value.toLowerCase() !== documentId.toLowerCase()) : [...options];
