import type { JsonSchema } from "../schema/normalize";
import { parseNumberInput } from "../schema/number";
import { fieldKind } from "./field-kind";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Form fields arrive as strings (Conform's payload); this turns them into the
 * document the schema describes: numbers, booleans, lists, nested objects.
 * Empty inputs are left out, so `required` reports them. Values that cannot
 * be read are kept as they are, so validation reports them under their field.
 */
export function coerceFormValue(value: unknown, schema: JsonSchema): unknown {
  const kind = fieldKind(schema);
  if (kind === "boolean") return value === "on" || value === "true" || value === true;
  if (value === undefined || value === null || value === "") return undefined;
  switch (kind) {
    case "number":
    case "integer": {
      if (typeof value !== "string") return value;
      const parsed = parseNumberInput(value, kind);
      return parsed.kind === "value" ? parsed.value : parsed.kind === "empty" ? undefined : value;
    }
    case "time":
      return typeof value === "string" && /^\d\d:\d\d$/.test(value) ? `${value}:00` : value;
    case "tags":
    case "array":
    case "texts":
    case "referenceList": {
      const list = Array.isArray(value) ? value : [value];
      const items = isObject(schema.items) ? schema.items : {};
      // Empty rows at the end are no items (the form's spare rows); an empty row before a filled one stays, as an
      // empty item, so every row keeps its index and its errors show under it.
      const coerced = list.map((item) => coerceFormValue(item, items));
      let end = coerced.length;
      while (end > 0 && coerced[end - 1] === undefined) end--;
      return coerced.slice(0, end).map((item) => (item === undefined ? emptyItem(items) : item));
    }
    case "object":
    case "translateObject":
    case "disableable": {
      if (!isObject(value)) return value;
      const properties = isObject(schema.properties) ? (schema.properties as Record<string, JsonSchema>) : {};
      const out: Record<string, unknown> = {};
      for (const [name, child] of Object.entries(value)) {
        const coerced = properties[name] ? coerceFormValue(child, properties[name]!) : child;
        if (coerced !== undefined) out[name] = coerced;
      }
      // An unchecked switch sends nothing; it still means false (the form showed 'Inactief').
      for (const [name, child] of Object.entries(properties)) {
        if (!(name in out) && fieldKind(child) === "boolean") out[name] = false;
      }
      if (kind === "disableable") out.disabled = value.disabled === "on" || value.disabled === "true";
      return Object.keys(out).length ? out : undefined;
    }
    default:
      return value;
  }
}

/** What an empty row in the middle of a list holds: an empty object for object rows, else an empty string. */
function emptyItem(items: JsonSchema): unknown {
  const kind = fieldKind(items);
  return kind === "object" || kind === "translateObject" || kind === "disableable" ? {} : "";
}
