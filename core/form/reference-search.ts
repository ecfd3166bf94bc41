import { collectionOfSchema, REFERENCE_QUERY_PREFIX, REFERENCE_SEARCH_FIELD, REFERENCE_SEARCH_MAX_LENGTH } from "@core/content/references";
import type { JsonSchema } from "@core/schema/normalize";
import { schemaAtName } from "@core/schema/walk";

/**
 * The search box of a large collection's reference field without JavaScript (spec §1: a search box whose submit
 * re-renders the options): a submit button named REFERENCE_SEARCH_FIELD whose value is the field's name, and the
 * text in `REFERENCE_QUERY_PREFIX + name`. The search texts are never part of the document: every one is taken
 * out of the post. A press becomes Conform's update intent of the field with its own value, so the form
 * re-renders with its input kept and nothing is saved; the action answers the search's results with it.
 */
const INTENT_FIELD = "__intent__";

export interface ReferenceSearchRequest {
  name: string;
  collection: string;
  query: string;
}

export function takeReferenceSearch(formData: FormData, schema: JsonSchema): ReferenceSearchRequest | null {
  const queries = new Map<string, string>();
  for (const key of new Set(formData.keys())) {
    if (!key.startsWith(REFERENCE_QUERY_PREFIX)) continue;
    const value = formData.get(key);
    if (typeof value === "string") queries.set(key.slice(REFERENCE_QUERY_PREFIX.length), value);
    formData.delete(key);
  }
  const pressed = formData.get(REFERENCE_SEARCH_FIELD);
  if (pressed === null) return null;
  formData.delete(REFERENCE_SEARCH_FIELD);
  if (typeof pressed !== "string" || formData.has(INTENT_FIELD)) return null;
  const field = schemaAtName(schema, pressed);
  const collection = field ? collectionOfSchema(field) : null;
  if (!collection) return null;
  const current = formData.get(pressed);
  formData.set(
    INTENT_FIELD,
    JSON.stringify({ type: "update", payload: { name: pressed, value: typeof current === "string" ? current : "" } }),
  );
  return { name: pressed, collection, query: (queries.get(pressed) ?? "").slice(0, REFERENCE_SEARCH_MAX_LENGTH) };
}
