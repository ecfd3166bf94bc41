import type { JsonSchema } from "./normalize";
import { isPlainObject } from "@core/plain-object";
import { childSchema, nameToSegments } from "./path";

/*
 * The one way through a schema: a property by its name, a list's items by an
 * index (childSchema in ./path: the schema tells an index from an all-digit
 * property name).
 */

/** The properties of a schema node, by name. */
export const propertiesOf = (node: JsonSchema): Record<string, JsonSchema> =>
  isPlainObject(node.properties) ? (node.properties as Record<string, JsonSchema>) : {};

/** The schema at a path of segments (`["rooms", 0, "title"]`), or null where the schema does not describe it. */
export function schemaAtPath(root: JsonSchema, segments: ReadonlyArray<string | number>): JsonSchema | null {
  let node: JsonSchema | null = root;
  for (const segment of segments) {
    node = childSchema(node, segment);
    if (!node || !isPlainObject(node)) return null;
  }
  return node;
}

/** Every node below `root` (properties and list items, depth first), with the path to it; `root` itself first. */
export function* schemaNodes(
  root: unknown,
  path: Array<string | number> = [],
  depth = 0,
): Generator<{ node: JsonSchema; path: Array<string | number> }> {
  if (!isPlainObject(root) || depth > 64) return;
  yield { node: root, path };
  for (const [name, child] of Object.entries(propertiesOf(root))) yield* schemaNodes(child, [...path, name], depth + 1);
  if (isPlainObject(root.items)) yield* schemaNodes(root.items, [...path, 0], depth + 1);
}

/** The schema of the form field `rooms[0].capacity`, or null. */
export const schemaAtName = (root: JsonSchema, name: string): JsonSchema | null => schemaAtPath(root, nameToSegments(name));
