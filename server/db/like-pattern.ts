/** An ILIKE (or LIKE) pattern matching `text` anywhere, its wildcards and escape character taken literally. */
export function likePattern(text: string): string {
  return `%${text.replaceAll(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
