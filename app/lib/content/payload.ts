/** Limits on a document's data, checked before validation (docs/schema-dialect.md). */
export const MAX_DEPTH = 32;
export const MAX_STRING_LENGTH = 65_536;
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

export type PayloadProblem =
  | { status: 400; message: string }
  | { status: 422; field: string; message: string };

/**
 * Refuses hostile shapes without running any schema: prototype keys at any
 * depth, nesting deeper than MAX_DEPTH, strings longer than MAX_STRING_LENGTH
 * (so no pattern ever runs on a huge string).
 */
export function inspectPayload(value: unknown): PayloadProblem | null {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: "", depth: 0 }];
  while (stack.length) {
    const { value: current, path, depth } = stack.pop()!;
    if (typeof current === "string") {
      if (current.length > MAX_STRING_LENGTH) {
        return { status: 422, field: path, message: `This text is too long: at most ${MAX_STRING_LENGTH} characters` };
      }
      continue;
    }
    if (typeof current !== "object" || current === null) continue;
    if (depth > MAX_DEPTH) return { status: 400, message: `The document is nested deeper than ${MAX_DEPTH} levels` };
    if (Array.isArray(current)) {
      current.forEach((item, index) => stack.push({ value: item, path: `${path}[${index}]`, depth: depth + 1 }));
      continue;
    }
    for (const key of Object.keys(current)) {
      if (FORBIDDEN_KEYS.has(key)) return { status: 400, message: `Forbidden property name '${key}'${path ? ` in ${path}` : ""}` };
      stack.push({ value: (current as Record<string, unknown>)[key], path: path ? `${path}.${key}` : key, depth: depth + 1 });
    }
  }
  return null;
}
