import type { Message } from "@core/messages";

/** Limits on a document's data, checked before validation (docs/schema-dialect.md). */
export const MAX_DEPTH = 32;
export const MAX_STRING_LENGTH = 65_536;
/**
 * Rows of one list in a form post. Form field names choose list indexes
 * (`rooms[4294967294].name`), so a few bytes can make a list of billions of
 * empty rows; a JSON body cannot, so the JSON API has no such limit.
 */
export const MAX_FORM_LIST_LENGTH = 10_000;
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/**
 * What is wrong with a payload, at the form field name (`rooms[0].title`) of
 * the offending value or key: 400 for a hostile shape, 422 for a value the
 * user can correct (a too long text).
 */
export type PayloadProblem = { status: 400 | 422; field: string; message: Message };

const childPath = (path: string, key: string) => (path ? `${path}.${key}` : key);

/**
 * Refuses hostile shapes without running any schema: prototype keys at any
 * depth, nesting deeper than MAX_DEPTH, strings longer than MAX_STRING_LENGTH
 * (so no pattern ever runs on a huge string), and with `maxListLength` lists
 * longer than that (checked before any list is walked). Never recursive.
 */
export function inspectPayload(value: unknown, options: { maxListLength?: number } = {}): PayloadProblem | null {
  const maxListLength = options.maxListLength ?? Number.POSITIVE_INFINITY;
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: "", depth: 0 }];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const { value: current, path, depth } = entry;
    if (typeof current === "string") {
      if (current.length > MAX_STRING_LENGTH) {
        return { status: 422, field: path, message: { key: "content.textTooLong", params: { limit: MAX_STRING_LENGTH } } };
      }
      continue;
    }
    if (typeof current !== "object" || current === null) continue;
    if (depth > MAX_DEPTH) return { status: 400, field: path, message: { key: "content.tooDeep", params: { limit: MAX_DEPTH } } };
    if (Array.isArray(current)) {
      if (current.length > maxListLength) {
        return { status: 400, field: path, message: { key: "content.tooManyRows", params: { limit: maxListLength } } };
      }
      // Object.keys, not forEach: a sparse list is walked by its entries, never by its length.
      for (const key of Object.keys(current)) {
        const index = Number(key);
        if (Number.isInteger(index) && index >= 0 && String(index) === key) {
          stack.push({ value: current[index], path: `${path}[${index}]`, depth: depth + 1 });
        } else if (FORBIDDEN_KEYS.has(key)) {
          return forbidden(key, path);
        }
      }
      continue;
    }
    for (const key of Object.keys(current)) {
      if (FORBIDDEN_KEYS.has(key)) return forbidden(key, path);
      stack.push({ value: (current as Record<string, unknown>)[key], path: childPath(path, key), depth: depth + 1 });
    }
  }
  return null;
}

function forbidden(key: string, path: string): PayloadProblem {
  return { status: 400, field: childPath(path, key), message: forbiddenNameMessage(key, path) };
}

/** A property name that could reach an object's prototype, named with where it is. */
export function forbiddenNameMessage(key: string, path: string): Message {
  return path ? { key: "content.forbiddenNameIn", params: { name: key, path } } : { key: "content.forbiddenName", params: { name: key } };
}
