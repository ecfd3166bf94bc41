/*
 * How deep a schema may nest (docs/schema-dialect.md): objects and lists inside each other at most
 * MAX_SCHEMA_NESTING levels. Checked before anything recurses through a schema (JSON.stringify, the dialect
 * check, normalisation, AJV), on the text before JSON.parse and on a parsed value alike, by loops that never
 * recurse themselves: a hostile schema nested a hundred thousand levels deep is refused with a message, not a
 * stack overflow. The same functions run in the schema editor (the browser) and on the server.
 */

/**
 * Levels of objects and lists a schema may nest: `{}` is one level, `{"properties": {}}` two. Each level of nested
 * fields takes two (`properties`, then the field's schema), so this allows about 31 levels of fields, above the
 * dialect's own limit of 32 and far above what a real form needs.
 */
export const MAX_SCHEMA_NESTING = 64;

/**
 * The offset of the first `{` or `[` in JSON text that opens a level deeper than `limit`, or null. Brackets inside
 * strings do not count. One pass over the text; the text need not be valid JSON.
 */
export function nestingOffset(text: string, limit = MAX_SCHEMA_NESTING): number | null {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (inString) {
      if (code === 0x5c)
        at += 1; // a backslash: the next character is escaped
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > limit) return at;
    } else if ((code === 0x7d || code === 0x5d) && depth > 0) depth -= 1;
  }
  return null;
}

/** Whether a parsed value nests objects and lists deeper than `limit` levels; walked with a stack, not recursion. */
export function nestsDeeperThan(value: unknown, limit = MAX_SCHEMA_NESTING): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    if (typeof entry.value !== "object" || entry.value === null) continue;
    if (entry.depth > limit) return true;
    for (const child of Object.values(entry.value)) {
      if (typeof child === "object" && child !== null) stack.push({ value: child, depth: entry.depth + 1 });
    }
  }
  return false;
}
