import type { Message } from "@core/messages";
import { MAX_SCHEMA_NESTING, nestingOffset } from "./nesting";

/*
 * JSON typed by a person (the schema editor, an imported bucket definition): parsed with JSON.parse, and when
 * that fails, scanned once more by a small grammar walk that finds where the text goes wrong, so that the message
 * names a line and a column in every browser and on the server alike (JSON.parse's own messages differ per engine).
 * Text that nests deeper than a schema may (./nesting.ts) is refused first, at the bracket that goes too deep: the
 * grammar walk below recurses, and whatever reads the parsed value later may too.
 */

export type JsonTextResult = { ok: true; value: unknown } | { ok: false; error: Message; line: number; column: number; offset: number };

/** Line and column (both from 1) of an offset into the text; a column counts UTF-16 units, as editors do. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < text.length; index += 1) {
    if (text.charCodeAt(index) === 10) {
      line += 1;
      lineStart = index + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

class JsonSyntaxError extends Error {
  constructor(readonly offset: number) {
    super("JSON syntax error");
  }
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** The offset of the first character that breaks the JSON grammar (text.length: it ends too early), or null. */
export function jsonErrorOffset(text: string): number | null {
  let at = 0;
  const skip = () => {
    while (at < text.length && WHITESPACE.has(text.charAt(at))) at += 1;
  };
  const fail = (): never => {
    throw new JsonSyntaxError(at);
  };
  const expect = (char: string) => {
    if (text.charAt(at) !== char) fail();
    at += 1;
  };
  const string = () => {
    expect('"');
    while (at < text.length) {
      const char = text.charAt(at);
      if (char === '"') {
        at += 1;
        return;
      }
      if (char.charCodeAt(0) < 0x20) fail();
      if (char === "\\") {
        at += 1;
        const escape = text.charAt(at);
        if (escape === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5))) {
            at += 1;
            while (at < text.length && /[0-9a-fA-F]/.test(text.charAt(at))) at += 1;
            fail();
          }
          at += 5;
          continue;
        }
        if (!'"\\/bfnrt'.includes(escape) || escape === "") fail();
      }
      at += 1;
    }
    fail();
  };
  const value = (): void => {
    skip();
    const char = text.charAt(at);
    if (char === "{") {
      at += 1;
      skip();
      if (text.charAt(at) === "}") {
        at += 1;
        return;
      }
      for (;;) {
        skip();
        string();
        skip();
        expect(":");
        value();
        skip();
        if (text.charAt(at) === ",") {
          at += 1;
          continue;
        }
        expect("}");
        return;
      }
    }
    if (char === "[") {
      at += 1;
      skip();
      if (text.charAt(at) === "]") {
        at += 1;
        return;
      }
      for (;;) {
        value();
        skip();
        if (text.charAt(at) === ",") {
          at += 1;
          continue;
        }
        expect("]");
        return;
      }
    }
    if (char === '"') {
      string();
      return;
    }
    for (const word of ["true", "false", "null"]) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return;
      }
    }
    NUMBER.lastIndex = at;
    const number = NUMBER.exec(text);
    if (number && number[0] !== "-" && number[0] !== "") {
      at += number[0].length;
      return;
    }
    // Inside a word that is almost a literal, point at the first character that differs.
    for (const word of ["true", "false", "null"]) {
      if (word.startsWith(char) && char !== "") {
        let index = 0;
        while (index < word.length && text.charAt(at + index) === word.charAt(index)) index += 1;
        at += index;
        fail();
      }
    }
    if (char === "-") at += 1;
    fail();
  };
  try {
    value();
    skip();
    if (at < text.length) fail();
    return null;
  } catch (error) {
    if (error instanceof JsonSyntaxError) return error.offset;
    throw error;
  }
}

/** A visible form of the character at an error: quotes and control characters spelt out. */
function shownCharacter(text: string, offset: number): string {
  const code = text.codePointAt(offset) ?? 0;
  if (code === 10) return "\\n";
  if (code === 13) return "\\r";
  if (code === 9) return "\\t";
  if (code < 0x20) return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  return String.fromCodePoint(code);
}

/**
 * Parses JSON typed by a person; a syntax error, or nesting deeper than MAX_SCHEMA_NESTING, is a catalogue message
 * naming its line and column. `outerLevels`: levels around the schema in the text (an imported definition: 1).
 */
export function parseJsonText(text: string, options: { outerLevels?: number } = {}): JsonTextResult {
  const tooDeep = nestingOffset(text, MAX_SCHEMA_NESTING + (options.outerLevels ?? 0));
  if (tooDeep !== null) {
    const { line, column } = lineAndColumn(text, tooDeep);
    return {
      ok: false,
      error: { key: "adminBuckets.json.tooDeep", params: { line, column, limit: MAX_SCHEMA_NESTING } },
      line,
      column,
      offset: tooDeep,
    };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    // Find where; the scanner agrees with JSON.parse on what is JSON, so it always finds a place.
    const offset = jsonErrorOffset(text) ?? text.length;
    const { line, column } = lineAndColumn(text, offset);
    const error: Message =
      offset >= text.length
        ? { key: "adminBuckets.json.unexpectedEnd", params: { line, column } }
        : { key: "adminBuckets.json.unexpectedCharacter", params: { line, column, character: shownCharacter(text, offset) } };
    return { ok: false, error, line, column, offset };
  }
}
