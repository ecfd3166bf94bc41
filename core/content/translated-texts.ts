import { isPlainObject } from "@core/plain-object";
import { TRANSLATE_OBJECT_RENDERER, type JsonSchema } from "@core/schema/normalize";

/*
 * The translated fields of a document (issue 34): what the per-locale completeness counts, what an XLIFF export
 * offers a translator and what its import may fill. One walk over the schema and the data, for the schema as stored
 * (`translate: true`) and as normalised (a `translate-object` of per-locale properties), so the bucket's raw schema
 * (export, import, the overview) and the edit form's normalised one (the dle-content strip) count alike.
 */

/** The step of a path: a property's name, or a list entry's index. */
export type TextPathSegment = string | number;

export interface TranslatedField {
  /** Where the per-locale object sits in the document: `["steps", 0, "text"]`. */
  path: TextPathSegment[];
  /** The field's label: titles joined with " › ", a list entry by its position ("Steps 1 › Text"). */
  label: string;
  /** The field's schema node (its `description` and `title`). */
  field: JsonSchema;
  /** The schema of one locale's value (`type`, `maxLength`, `_ref`…). */
  text: JsonSchema;
  /** The per-locale values as stored (an object per locale, or anything else the document holds there). */
  value: unknown;
}

const propertiesOf = (node: JsonSchema): Record<string, JsonSchema> =>
  isPlainObject(node.properties) ? (node.properties as Record<string, JsonSchema>) : {};

const isTranslated = (node: JsonSchema) => node.translate === true || node.renderer === TRANSLATE_OBJECT_RENDERER;

/** A translated node's per-locale schema: the node itself as stored, its first locale's property once normalised. */
const perLocaleSchema = (node: JsonSchema): JsonSchema =>
  node.renderer === TRANSLATE_OBJECT_RENDERER ? (Object.values(propertiesOf(node))[0] ?? {}) : node;

const labelOf = (name: string, node: JsonSchema) => (typeof node.title === "string" && node.title ? node.title : name);

/** A translated text list (`renderer: "texts"`): entries `{id, text: {locale: …}}`. */
const TEXT_LIST_ENTRY: JsonSchema = { type: "string" };

/**
 * Every translated field of a document, in the schema's order: each translated property reached through objects
 * (whether the document has a value there or not) and through the entries the document's lists have, and the text of
 * each entry of a translated text list. A list's fields are its entries' fields, so adding an entry adds fields.
 */
export function translatedFields(schema: unknown, data: unknown): TranslatedField[] {
  const fields: TranslatedField[] = [];
  const visit = (node: JsonSchema, value: unknown, path: TextPathSegment[], label: string, depth: number) => {
    if (depth > 64) return;
    if (isTranslated(node)) {
      fields.push({ path, label, field: node, text: perLocaleSchema(node), value });
      return;
    }
    if (node.type === "array") {
      const entries = Array.isArray(value) ? value : [];
      const items = isPlainObject(node.items) ? (node.items as JsonSchema) : null;
      entries.forEach((entry, index) => {
        const entryLabel = `${label} ${index + 1}`;
        if (node.renderer === "texts") {
          const text = isPlainObject(entry) ? entry.text : undefined;
          fields.push({ path: [...path, index, "text"], label: entryLabel, field: node, text: TEXT_LIST_ENTRY, value: text });
        } else if (items) visit(items, entry, [...path, index], entryLabel, depth + 1);
      });
      return;
    }
    for (const [name, child] of Object.entries(propertiesOf(node))) {
      if (!isPlainObject(child)) continue;
      const childValue = isPlainObject(value) ? value[name] : undefined;
      visit(child, childValue, [...path, name], label ? `${label} › ${labelOf(name, child)}` : labelOf(name, child), depth + 1);
    }
  };
  if (isPlainObject(schema)) visit(schema, data, [], "", 0);
  return fields;
}

/** One locale's value of a translated field, if the document holds one. */
export const localeValue = (field: Pick<TranslatedField, "value">, locale: string): unknown =>
  isPlainObject(field.value) ? field.value[locale] : undefined;

/**
 * Whether a locale's value counts as filled: a text with something other than white space, or any other value that
 * is not null (a translated number or media reference). missingLocaleCondition (server/content/missing-locale.ts)
 * is the same rule in SQL.
 */
export function isFilled(value: unknown): boolean {
  if (typeof value === "string") return /\S/.test(value);
  return value !== undefined && value !== null;
}

/** A translated field's path as a form field's name: `steps[0].text`. */
export const formNameOf = (path: readonly TextPathSegment[]): string =>
  path.reduce<string>((name, segment) => (typeof segment === "number" ? `${name}[${segment}]` : name ? `${name}.${segment}` : segment), "");
