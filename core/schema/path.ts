import { isPlainObject } from "@core/plain-object";
import type { JsonSchema } from "./normalize";

/** A property name as one JSON Pointer segment (RFC 6901), as AJV writes instancePath. */
export const escapeSegment = (name: string) => name.replaceAll("~", "~0").replaceAll("/", "~1");

/** `/a~1b/0` → ["a/b", "0"]; ~0 is read after ~1, as RFC 6901 says. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === "") return [];
  const segments = pointer.slice(1).split("/");
  // A document can have tens of thousands of errors: skip the replacing when there is nothing to unescape.
  return pointer.includes("~") ? segments.map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~")) : segments;
}

/**
 * Whether a schema node holds a list (its children are indexes) or an object
 * (its children are property names); null when the schema does not say.
 */
function containerOf(node: unknown): "list" | "object" | null {
  if (!isPlainObject(node)) return null;
  const { type } = node;
  const list = type === "array" || (Array.isArray(type) && type.includes("array")) || node.items !== undefined;
  const object = type === "object" || (Array.isArray(type) && type.includes("object")) || node.properties !== undefined;
  return list === object ? null : list ? "list" : "object";
}

/** The schema of child `segment` of `node` (a list row or a declared property), or null when the schema does not describe it. */
export function childSchema(node: unknown, segment: string | number): JsonSchema | null {
  const container = containerOf(node);
  if (!container || !isPlainObject(node)) return null;
  if (container === "list") {
    if (!/^\d+$/.test(String(segment))) return null;
    const items: unknown = Array.isArray(node.items) ? (node.items as unknown[])[Number(segment)] : node.items;
    return isPlainObject(items) ? items : null;
  }
  const properties = node.properties;
  const name = String(segment);
  if (!isPlainObject(properties) || !Object.prototype.hasOwnProperty.call(properties, name)) return null;
  const child = properties[name];
  return isPlainObject(child) ? child : null;
}

/**
 * `/rooms/0/title/nl` → `rooms[0].title.nl`: the form field's name for an AJV
 * instance path. The schema tells an index from a property name, since both
 * may be all digits (`/years/2024` is `years.2024` when years is an object).
 * Past what the schema describes, all-digit segments are taken as indexes.
 */
export function pointerToName(
  pointer: string,
  schema: JsonSchema,
  /** Called for each step, with the schema nodes it goes from and to (null past what the schema describes). */
  onStep?: (parent: JsonSchema | null, segment: string, child: JsonSchema | null) => void,
): string {
  let node: JsonSchema | null = schema;
  let name = "";
  for (const segment of pointerSegments(pointer)) {
    const container = containerOf(node) ?? (/^\d+$/.test(segment) ? "list" : "object");
    name = container === "list" ? `${name}[${segment}]` : name ? `${name}.${segment}` : segment;
    const child = childSchema(node, segment);
    onStep?.(node, segment, child);
    node = child;
  }
  return name;
}

/**
 * `rooms[0].title.nl` → ["rooms", 0, "title", "nl"], read as Conform reads
 * names: only brackets make an index, so `years.2024` is the property "2024".
 */
export function nameToSegments(name: string): Array<string | number> {
  const segments: Array<string | number> = [];
  for (const match of name.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    segments.push(match[2] !== undefined ? Number(match[2]) : (match[1] ?? ""));
  }
  return segments;
}
