import type { ErrorObject } from "ajv";
import type { Message } from "@core/messages";
import { isPlainObject } from "@core/plain-object";
import { compileSchema } from "./ajv";
import { validationProblem } from "./messages";
import { TRANSLATE_OBJECT_RENDERER, type JsonSchema } from "./normalize";

/*
 * A property's `default` is what a new document starts with (core/form/kinds.ts initialValue), so it must be a value
 * the property accepts: the bucket admin refuses one that is not (docs/schema-dialect.md). Server only: it compiles
 * each property with AJV.
 */

const MAX_SHOWN = 60;

/** The default as the admin wrote it, cut short. */
function shown(value: unknown): string {
  const text = JSON.stringify(value); // a value parsed from JSON: never undefined
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

/** A copy without `$data` pointers: alone, a property has no neighbours to point at. */
function withoutDataRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDataRefs);
  if (!isPlainObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (!(isPlainObject(value) && "$data" in value)) out[keyword] = withoutDataRefs(value);
  }
  return out;
}

/** Where in the default the first error is (`rooms.0.name`), or "" for the default itself. */
function placeOf(error: ErrorObject): string {
  const missing =
    error.keyword === "required" && typeof error.params.missingProperty === "string" ? `/${error.params.missingProperty}` : "";
  return `${error.instancePath}${missing}`.slice(1).replaceAll("/", ".");
}

/**
 * The problems of every `default` in a normalised schema that AJV compiled, each at the property path the admin
 * wrote (a translated property's locales share its path). `at` words a problem at a path, as the dialect check does.
 */
export function defaultProblems(schema: JsonSchema, at: (path: string, problem: Message) => Message): Message[] {
  const problems: Message[] = [];
  const walk = (node: unknown, path: string, depth: number) => {
    if (!isPlainObject(node) || depth > 64) return;
    if ("default" in node) {
      const validate = compileSchema(withoutDataRefs(node) as JsonSchema);
      const error = validate(node.default) ? undefined : validate.errors?.[0];
      if (error) {
        const reason = validationProblem(error.keyword, error.params);
        const place = placeOf(error);
        const value = shown(node.default);
        problems.push(
          at(
            path,
            place
              ? { key: "adminBuckets.dialect.badDefaultAt", params: { value, place, reason } }
              : { key: "adminBuckets.dialect.badDefault", params: { value, reason } },
          ),
        );
      }
    }
    if (isPlainObject(node.properties)) {
      const translated = node.renderer === TRANSLATE_OBJECT_RENDERER;
      for (const [name, child] of Object.entries(node.properties))
        walk(child, translated ? path : `${path ? `${path}.` : ""}properties.${name}`, depth + 1);
    }
    if (isPlainObject(node.items)) walk(node.items, `${path ? `${path}.` : ""}items`, depth + 1);
  };
  walk(schema, "", 0);
  return dedupe(problems);
}

/** A translated property's locales report the same problem once. */
function dedupe(messages: Message[]): Message[] {
  const seen = new Set<string>();
  return messages.filter((message) => {
    const key = JSON.stringify(message);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
