import { isPlainObject } from "@core/plain-object";
import { parseNumberInput } from "@core/schema/number";
import type { Message } from "@core/messages";
import { unreadableNumber } from "@core/form/value-messages";

/*
 * A bucket's documents as rows of cells (issue 34): the columns of a CSV export, and what an import's cells become.
 * One column per top-level property; a translated text has one per bucket locale (`title.nl`, `title.en`); a list
 * or an object is one column holding its JSON. The document's id is the column `_id`.
 */

export const ID_COLUMN = "_id";

/** The file formats documents go out and come in as. */
export const DOCUMENT_FORMATS = ["csv", "json", "ndjson"] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];
export const isDocumentFormat = (value: unknown): value is DocumentFormat => DOCUMENT_FORMATS.includes(value as DocumentFormat);

export type ColumnKind = "text" | "number" | "integer" | "boolean" | "json";

export interface DocumentColumn {
  /** The header: the property's name, with `.{locale}` for a translated text. */
  header: string;
  property: string;
  locale?: string;
  kind: ColumnKind;
}

/** The columns of a bucket's documents, in the schema's order of properties. */
export function documentColumns(schema: unknown, locales: readonly string[]): DocumentColumn[] {
  const properties = isPlainObject(schema) && isPlainObject(schema.properties) ? schema.properties : {};
  return Object.entries(properties).flatMap(([property, node]): DocumentColumn[] => {
    if (!isPlainObject(node)) return [{ header: property, property, kind: "json" }];
    if (node.translate === true && node.type === "string")
      return locales.map((locale) => ({ header: `${property}.${locale}`, property, locale, kind: "text" }));
    return [{ header: property, property, kind: columnKind(node) }];
  });
}

function columnKind(node: Record<string, unknown>): ColumnKind {
  if (node.translate === true) return "json";
  switch (node.type) {
    case "string":
      return "text";
    case "number":
    case "integer":
    case "boolean":
      return node.type;
    default:
      return "json";
  }
}

/** A document's cells, in the columns' order: a missing value is an empty cell. */
export function cellsOf(data: Record<string, unknown>, columns: readonly DocumentColumn[]): string[] {
  return columns.map((column) => {
    const value =
      column.locale === undefined ? data[column.property] : (data[column.property] as Record<string, unknown> | undefined)?.[column.locale];
    if (value === undefined || value === null) return "";
    if (typeof value === "string") return value;
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    return JSON.stringify(value);
  });
}

/** What went wrong reading one cell: the column and the message. */
export interface CellProblem {
  header: string;
  message: Message;
}

/**
 * A document's data from its cells by header (an empty cell: no value). Cells the columns do not name are left out;
 * a cell that cannot be read as its column's kind is a problem (the editor's own message for a number).
 */
export function dataOfCells(
  cells: Readonly<Record<string, string | undefined>>,
  columns: readonly DocumentColumn[],
): { data: Record<string, unknown>; problems: CellProblem[] } {
  const data: Record<string, unknown> = {};
  const problems: CellProblem[] = [];
  for (const column of columns) {
    const text = cells[column.header];
    if (text === undefined || text === "") continue;
    const read = cellValue(column.kind, text);
    if ("problem" in read) {
      problems.push({ header: column.header, message: read.problem });
      continue;
    }
    if (column.locale === undefined) data[column.property] = read.value;
    else {
      const texts = isPlainObject(data[column.property]) ? (data[column.property] as Record<string, unknown>) : {};
      data[column.property] = { ...texts, [column.locale]: read.value };
    }
  }
  return { data, problems };
}

function cellValue(kind: ColumnKind, text: string): { value: unknown } | { problem: Message } {
  switch (kind) {
    case "text":
      return { value: text };
    case "number":
    case "integer": {
      const read = parseNumberInput(text, kind);
      return read.kind === "value" ? { value: read.value } : { problem: unreadableNumber(text, kind) };
    }
    case "boolean": {
      const value = BOOLEANS[text.trim().toLowerCase()];
      return value === undefined ? { problem: { key: "transfer.notBoolean", params: { text } } } : { value };
    }
    case "json":
      try {
        return { value: JSON.parse(text) as unknown };
      } catch {
        return { problem: { key: "transfer.notJson" } };
      }
  }
}

const BOOLEANS: Record<string, boolean | undefined> = {
  true: true,
  false: false,
  yes: true,
  no: false,
  "1": true,
  "0": false,
  ja: true,
  nee: false,
};
