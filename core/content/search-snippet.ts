/** The longest search taken; the rest of a longer one is dropped. */
export const MAX_SEARCH_LENGTH = 200;

/** A found text around its match: the page marks `match` between the two. */
export interface SearchSnippet {
  before: string;
  match: string;
  after: string;
}

/** How many characters of context a snippet shows on each side of its match. */
const CONTEXT = 40;

/**
 * Where a search matched a document: the first text (or number) of its data, in the order the data lists them, that
 * holds the searched words (case-insensitive), cut to a few words around them. Null when no single value holds them:
 * the stored search text joins a document's values, so a search may match across two of them. A value equal to
 * `except` (the title, shown beside it) is passed over.
 */
export function searchSnippet(data: unknown, query: string, except?: string): SearchSnippet | null {
  const needle = query.trim().toLowerCase();
  if (!needle) return null;
  for (const text of textsOf(data)) {
    if (text === except) continue;
    const at = text.toLowerCase().indexOf(needle);
    if (at < 0) continue;
    // Cut between words: the context runs from the first space past its start to the last space before its end.
    const from = Math.max(0, at - CONTEXT);
    const start = from === 0 ? 0 : wordStart(text, from, at);
    const to = at + needle.length + CONTEXT;
    const end = to >= text.length ? text.length : wordEnd(text, at + needle.length, to);
    return {
      before: (start > 0 ? "…" : "") + text.slice(start, at).trimStart(),
      match: text.slice(at, at + needle.length),
      after: text.slice(at + needle.length, end).trimEnd() + (end < text.length ? "…" : ""),
    };
  }
  return null;
}

function wordStart(text: string, from: number, at: number): number {
  const space = text.indexOf(" ", from);
  return space >= 0 && space + 1 < at ? space + 1 : from;
}

function wordEnd(text: string, after: number, to: number): number {
  const space = text.lastIndexOf(" ", to);
  return space > after ? space : to;
}

function* textsOf(value: unknown): Generator<string> {
  if (typeof value === "string") yield value.replaceAll(/\s+/g, " ");
  else if (typeof value === "number") yield String(value);
  else if (Array.isArray(value)) for (const item of value) yield* textsOf(item);
  else if (value && typeof value === "object") for (const item of Object.values(value)) yield* textsOf(item);
}
