/*
 * XLIFF 2.0 (OASIS, urn:oasis:names:tc:xliff:document:2.0) written piece by piece (issue 34): the head, one <file>
 * per document, the tail, so an export streams. Only the core elements: <file>, <notes>/<note>, <unit>, <segment>,
 * <source>, <target>, and <cp> for the characters XML 1.0 cannot hold (parsed back by xliff-parse.ts).
 */

export const XLIFF_NAMESPACE = "urn:oasis:names:tc:xliff:document:2.0";

export interface XliffNote {
  category: string;
  text: string;
}

export interface XliffUnitOut {
  id: string;
  name: string;
  notes: readonly XliffNote[];
  source: string;
  /** null: no <target> yet. */
  target: string | null;
}

export interface XliffFileOut {
  id: string;
  original: string;
  notes: readonly XliffNote[];
  units: readonly XliffUnitOut[];
}

/** Characters XML 1.0 cannot hold, even as references: written as <cp hex="…"/>. */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- these are the characters it finds
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const hex = (character: string) => (character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");

/** Element content: markup escaped, a carriage return as a reference (a parser would make it a line feed). */
export const xmlText = (text: string): string =>
  text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll("\r", "&#13;")
    .replace(NOT_XML, (character) => `<cp hex="${hex(character)}"/>`);

/** An attribute's value, in double quotes: white space other than a space kept as references. */
export const xmlAttribute = (text: string): string =>
  text
    .replace(NOT_XML, "\uFFFD")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll('"', "&quot;")
    .replaceAll("\n", "&#10;")
    .replaceAll("\r", "&#13;")
    .replaceAll("\t", "&#9;");

export const xliffHead = (srcLang: string, trgLang: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<xliff xmlns="${XLIFF_NAMESPACE}" version="2.0" xml:space="preserve" srcLang="${xmlAttribute(srcLang)}" trgLang="${xmlAttribute(trgLang)}">\n`;

export const XLIFF_TAIL = "</xliff>\n";

function notes(list: readonly XliffNote[], indent: string): string {
  if (!list.length) return "";
  const items = list.map((note) => `${indent}  <note category="${xmlAttribute(note.category)}">${xmlText(note.text)}</note>\n`).join("");
  return `${indent}<notes>\n${items}${indent}</notes>\n`;
}

function unit(item: XliffUnitOut): string {
  const state = item.target === null ? "initial" : "translated";
  const target = item.target === null ? "" : `<target>${xmlText(item.target)}</target>`;
  return (
    `    <unit id="${xmlAttribute(item.id)}" name="${xmlAttribute(item.name)}">\n` +
    notes(item.notes, "      ") +
    `      <segment state="${state}">\n        <source>${xmlText(item.source)}</source>\n` +
    (target ? `        ${target}\n` : "") +
    `      </segment>\n    </unit>\n`
  );
}

/** One <file>: a document's units (a file needs at least one). */
export const xliffFile = (file: XliffFileOut): string =>
  `  <file id="${xmlAttribute(file.id)}" original="${xmlAttribute(file.original)}">\n` +
  notes(file.notes, "    ") +
  file.units.map(unit).join("") +
  `  </file>\n`;
