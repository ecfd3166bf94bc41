import { XMLParser, XMLValidator } from "fast-xml-parser";
import type { Message } from "@core/messages";
import { XLIFF_NAMESPACE } from "./xliff-build";

/*
 * An uploaded XLIFF 2.0 file read back (issue 34): its languages and, per <file>, its units' source and target texts.
 * A unit's segments (and ignorables) are joined in order; <cp hex> is its character. A file with a DOCTYPE or entity
 * declarations is refused before the parser sees it (no external entities, no entity expansion): an XLIFF file needs
 * neither, and the only references read are XML's five and numeric ones.
 */

export class XliffError extends Error {
  constructor(readonly reason: Message) {
    super(reason.key);
    this.name = "XliffError";
  }
}

export interface XliffUnitIn {
  id: string;
  source: string;
  /** null when the unit has no target (or not for every segment). */
  target: string | null;
  /** Inline codes (<ph>, <pc>, <mrk>…) in its source or target, which Vitrine's plain texts cannot hold. */
  markup: boolean;
}

export interface XliffFileIn {
  id: string;
  units: XliffUnitIn[];
}

export interface ParsedXliff {
  srcLang: string;
  trgLang: string | null;
  files: XliffFileIn[];
}

type XmlNode = Record<string, unknown> & { ":@"?: Record<string, string> };

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
  cdataPropName: "#cdata",
  ignoreDeclaration: true,
  ignorePiTags: true,
});

const REFERENCE = /&(?:(lt|gt|amp|quot|apos)|#(\d+)|#x([0-9a-fA-F]+));|&/g;
const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** XML's references put into characters; any other "&" makes the file malformed. */
function decoded(text: string): string {
  return text.replace(REFERENCE, (whole, name?: string, decimal?: string, hexadecimal?: string) => {
    if (name) return NAMED[name] ?? whole;
    const code = decimal ? Number(decimal) : hexadecimal ? parseInt(hexadecimal, 16) : NaN;
    if (!Number.isInteger(code) || code < 1 || code > 0x10ffff)
      throw new XliffError({ key: "translations.badReference", params: { text: whole } });
    return String.fromCodePoint(code);
  });
}

const malformed = (message: string, line: number, column: number) =>
  new XliffError({ key: "translations.malformed", params: { message, line, column } });

/** The file's text: UTF-8 (a byte-order mark dropped) or UTF-16 with its byte-order mark. */
function textOf(bytes: Uint8Array): string {
  const [first, second] = bytes;
  const encoding = first === 0xff && second === 0xfe ? "utf-16le" : first === 0xfe && second === 0xff ? "utf-16be" : "utf-8";
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    throw new XliffError({ key: "translations.notUtf8" });
  }
}

const nameOf = (node: XmlNode) => Object.keys(node).find((key) => key !== ":@") ?? "";
const childrenOf = (node: XmlNode): XmlNode[] => (node[nameOf(node)] as XmlNode[] | undefined) ?? [];
const attribute = (node: XmlNode, name: string): string | null => {
  const value = node[":@"]?.[name];
  return typeof value === "string" ? decoded(value) : null;
};
const elements = (node: XmlNode, name: string) => childrenOf(node).filter((child) => nameOf(child) === name);

/** The text of a <source> or <target>: its text, CDATA and <cp>s; anything else is inline markup. */
function contentOf(node: XmlNode): { text: string; markup: boolean } {
  let text = "";
  let markup = false;
  for (const child of childrenOf(node)) {
    const name = nameOf(child);
    if (name === "#text") text += decoded(typeof child["#text"] === "string" ? child["#text"] : "");
    else if (name === "#cdata")
      text += childrenOf(child)
        .map((part) => (typeof part["#text"] === "string" ? part["#text"] : ""))
        .join("");
    else if (name === "cp") text += String.fromCodePoint(parseInt(attribute(child, "hex") ?? "FFFD", 16) || 0xfffd);
    else markup = true;
  }
  return { text, markup };
}

function unitOf(node: XmlNode): XliffUnitIn {
  let source = "";
  let target = "";
  let translated = true;
  let markup = false;
  for (const part of childrenOf(node)) {
    const name = nameOf(part);
    if (name !== "segment" && name !== "ignorable") continue;
    const [sourceNode] = elements(part, "source");
    const [targetNode] = elements(part, "target");
    const sourceText = sourceNode ? contentOf(sourceNode) : { text: "", markup: false };
    const targetText = targetNode ? contentOf(targetNode) : null;
    source += sourceText.text;
    markup ||= sourceText.markup || Boolean(targetText?.markup);
    if (targetText) target += targetText.text;
    else if (name === "ignorable") target += sourceText.text;
    else translated = false;
  }
  return { id: attribute(node, "id") ?? "", source, target: translated ? target : null, markup };
}

/** The units of a <file> or <group>, groups' own units included, in document order. */
const unitsIn = (node: XmlNode): XliffUnitIn[] =>
  childrenOf(node).flatMap((child) => (nameOf(child) === "unit" ? [unitOf(child)] : nameOf(child) === "group" ? unitsIn(child) : []));

/** Reads an XLIFF 2.0 file; an unreadable one throws an XliffError saying why. */
export function parseXliff(bytes: Uint8Array): ParsedXliff {
  const text = textOf(bytes).replace(/^\uFEFF/, "");
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new XliffError({ key: "translations.doctype" });
  // The parser takes what is not well-formed; fast-xml-validator, which the deprecation names, is not a dependency.
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw malformed(valid.err.msg, valid.err.line, valid.err.col);
  const roots = (parser.parse(text) as XmlNode[]).filter((node) => !["#text", "#comment"].includes(nameOf(node)));
  const [root] = roots;
  if (!root || roots.length !== 1 || nameOf(root) !== "xliff" || attribute(root, "xmlns") !== XLIFF_NAMESPACE)
    throw new XliffError({ key: "translations.notXliff" });
  if (attribute(root, "version") !== "2.0")
    throw new XliffError({ key: "translations.notVersion2", params: { version: attribute(root, "version") ?? "?" } });
  const srcLang = attribute(root, "srcLang");
  if (!srcLang) throw new XliffError({ key: "translations.notXliff" });
  const files = elements(root, "file").map((file) => ({ id: attribute(file, "id") ?? "", units: unitsIn(file) }));
  return { srcLang, trgLang: attribute(root, "trgLang"), files };
}
