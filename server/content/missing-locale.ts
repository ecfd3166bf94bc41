import { isPlainObject } from "@core/plain-object";
import { TRANSLATE_OBJECT_RENDERER, type JsonSchema } from "@core/schema/normalize";

/*
 * "Documents missing locale X" as SQL (issue 34): the overview's filter, over a version's data. The same rule as
 * core/content/translation-completeness.ts: a translated field (reached through objects, present or not, and through
 * the entries of the document's lists; each entry's text of a translated text list) is missing when its locale holds
 * nothing but white space, or null, or nothing at all.
 */

const quoted = (name: string) => `'${name.replaceAll("'", "''")}'`;

/** The locale's value of the per-locale object at `json` is missing. */
const missingAt = (json: string, locale: string) => `NOT coalesce((${json} ->> ${locale}) ~ '\\S', false)`;

const listOf = (json: string) => `CASE WHEN jsonb_typeof(${json}) = 'array' THEN ${json} END`;

function conditions(node: JsonSchema, json: string, locale: string, depth: number): string[] {
  if (depth > 64) return [];
  if (node.translate === true || node.renderer === TRANSLATE_OBJECT_RENDERER) return [missingAt(json, locale)];
  if (node.type === "array") {
    const entry = `e${depth}.value`;
    const inside =
      node.renderer === "texts"
        ? [missingAt(`${entry} -> 'text'`, locale)]
        : isPlainObject(node.items)
          ? conditions(node.items, entry, locale, depth + 1)
          : [];
    if (!inside.length) return [];
    return [`EXISTS (SELECT 1 FROM jsonb_array_elements(${listOf(json)}) AS e${depth} WHERE ${inside.join(" OR ")})`];
  }
  const properties = isPlainObject(node.properties) ? node.properties : {};
  return Object.entries(properties).flatMap(([name, child]) =>
    isPlainObject(child) ? conditions(child, `${json} -> ${quoted(name)}`, locale, depth + 1) : [],
  );
}

/**
 * A condition over a version's data (`data`, `v.data` by default) that holds when the document lacks a translation
 * into the locale the parameter `localeParameter` (`$3`) names: some translated field of the schema (stored or
 * normalised) empty in that locale. "false" when the schema has no translated field. The caller binds a locale of the
 * bucket (any other would find every document missing).
 */
export function missingLocaleCondition(schema: unknown, localeParameter: string, data = "v.data"): string {
  if (!/^\$\d+$/.test(localeParameter)) throw new Error(`not a parameter placeholder: ${localeParameter}`);
  const found = isPlainObject(schema) ? conditions(schema, data, `${localeParameter}::text`, 0) : [];
  return found.length ? `(${found.join(" OR ")})` : "false";
}
