import { isPlainObject } from "@core/plain-object";
import { translate } from "@core/messages";

/** A JSON Schema as stored in a bucket, before normalisation. */
export type JsonSchema = { [key: string]: unknown };

export const TRANSLATE_OBJECT_RENDERER = "translate-object";
/** The spec's wording (English); the schema editor shows the same catalogue messages in the admin's language. */
export const INTEGER_STEP_ERROR = translate("en", "adminBuckets.dialect.integerStep");
export const NESTED_TRANSLATE_ERROR = translate("en", "adminBuckets.dialect.nestedTranslate");

export interface NormalizedSchema {
  schema: JsonSchema;
  /** Schema errors to show the admin on the form; the form does not render when there are any. */
  problems: string[];
}

/** Keywords whose value maps names to schemas. */
const NAME_MAPS = new Set(["properties", "patternProperties", "definitions", "$defs", "dependentSchemas"]);

/**
 * Spec §3: `translate: true` becomes an object with one sub-property per
 * bucket locale (all required when the property is); `_data` becomes `$data`;
 * an integer step below 1 is a schema error; objects refuse unknown
 * properties unless they set additionalProperties. The input is not changed.
 */
export function normalizeSchema(raw: unknown, locales: readonly string[]): NormalizedSchema {
  const problems: string[] = [];

  /**
   * Deep copy that renames `_data` to `$data` and drops prototype keys. Keys of
   * a map of names (`properties`, `definitions`, …) are property names, not
   * keywords: a property called `_data` keeps its name.
   */
  function clean(node: unknown, namesMap = false): unknown {
    if (Array.isArray(node)) return node.map((item) => clean(item));
    if (!isPlainObject(node)) return node;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "__proto__" || key === "constructor" || key === "prototype") continue;
      if (namesMap) out[key] = clean(value);
      else out[key === "_data" ? "$data" : key] = clean(value, NAME_MAPS.has(key) && isPlainObject(value));
    }
    return out;
  }

  /** Walks the properties and items, collecting schema errors. */
  function check(node: unknown, path: string, insideTranslatable: boolean): void {
    if (!isPlainObject(node)) return;
    if (node.type === "integer" && typeof node.step === "number" && node.step < 1) problems.push(`${INTEGER_STEP_ERROR} (${path || "/"})`);
    const translatable = node.translate === true;
    if (translatable && insideTranslatable) problems.push(`${NESTED_TRANSLATE_ERROR} (${path})`);
    const inside = insideTranslatable || translatable;
    if (isPlainObject(node.properties)) {
      for (const [name, property] of Object.entries(node.properties)) check(property, `${path}/${name}`, inside);
    }
    if (isPlainObject(node.items)) check(node.items, `${path}/items`, inside);
  }

  function expandTranslatable(node: unknown, required: boolean): unknown {
    if (!isPlainObject(node)) return node;
    let out = { ...node };
    if (isPlainObject(out.properties)) {
      const requiredNames = Array.isArray(out.required) ? (out.required as string[]) : [];
      out.properties = Object.fromEntries(
        Object.entries(out.properties).map(([name, property]) => [name, expandTranslatable(property, requiredNames.includes(name))]),
      );
    }
    if (isPlainObject(out.items)) out.items = expandTranslatable(out.items, false);
    // Unknown properties are an error unless the schema says otherwise.
    if (isPlainObject(out.properties) && out.additionalProperties === undefined) out.additionalProperties = false;
    if (out.renderer === "texts" && out.type === "array") {
      // Translated text arrays: entries {id, text: {locale: string}} (spec §3).
      out.items = {
        type: "object",
        required: ["id"],
        properties: {
          id: { type: "string", title: "id", isNotEmpty: true },
          text: {
            type: "object",
            properties: Object.fromEntries(locales.map((locale) => [locale, { type: "string", title: locale }])),
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      };
    }
    if (out["x-disableable-bool"] === true && out.type === "object" && !isPlainObject(out.properties)) {
      // Disableable string: {value, disabled} (spec §3).
      out.properties = { value: { type: "string" }, disabled: { type: "boolean" } };
      out.additionalProperties = false;
    }
    if (out.translate === true) {
      const { translate: _translate, title, description, note, ...perLocale } = out;
      out = {
        type: "object",
        renderer: TRANSLATE_OBJECT_RENDERER,
        ...(title !== undefined ? { title } : {}),
        ...(description !== undefined ? { description } : {}),
        ...(note !== undefined ? { note } : {}),
        properties: Object.fromEntries(locales.map((locale) => [locale, { ...perLocale, title: locale }])),
        required: required ? [...locales] : [],
        // Only the bucket's locales: an unknown one is refused like any unknown property.
        additionalProperties: false,
      };
    }
    return out;
  }

  const visited = clean(raw);
  check(visited, "", false);
  if (!isPlainObject(visited))
    return { schema: { type: "object", properties: {} }, problems: ["schema error: the schema must be an object"] };
  return { schema: expandTranslatable(visited, false) as JsonSchema, problems };
}
