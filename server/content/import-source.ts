import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { Readable } from "node:stream";
import { parse as parseCsv, CsvError } from "csv-parse";
import streamArray from "stream-json/streamers/stream-array.js";
import type { Message } from "@core/messages";
import type { DocumentFormat } from "@core/content/columns";

/*
 * The rows of an import's file (issue 34), read as a stream: a CSV's records (cells by header; the delimiter, a
 * comma, a semicolon or a tab, is read off the header line), a JSON array's elements or NDJSON's lines (objects).
 * A file that is not UTF-8, a row longer than MAX_ROW_CHARS, bad quoting or bad JSON stops the reading with an
 * ImportFileError saying what and where; nothing is read into memory whole.
 */

export { isDocumentFormat as isImportFormat, type DocumentFormat as ImportFormat } from "@core/content/columns";
type ImportFormat = DocumentFormat;

/** The longest row taken (a document's text, not a dump in one cell): 1 MiB of characters. */
export const MAX_ROW_CHARS = 1024 * 1024;

/** A file that cannot be read as its format: the message says what is wrong, `row` where (1 is the first row of data). */
export class ImportFileError extends Error {
  constructor(
    readonly problem: Message,
    readonly row: number | null = null,
  ) {
    super(problem.key);
  }
}

export type ImportRow = Record<string, unknown>;

/** The file's rows, each an object: a CSV row's cells by header (strings), a JSON element as it is. */
export async function* importRows(path: string, format: ImportFormat): AsyncGenerator<ImportRow> {
  if (format === "csv") yield* csvRows(path);
  else if (format === "ndjson") yield* ndjsonRows(path);
  else yield* jsonRows(path);
}

/** The file's text, decoded strictly: a byte sequence that is not UTF-8 is an error, not a replacement character. */
async function* utf8Text(path: string): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  try {
    for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) yield decoder.decode(chunk, { stream: true });
    yield decoder.decode();
  } catch (error) {
    if (error instanceof TypeError) throw new ImportFileError({ key: "transfer.notUtf8" });
    throw error;
  }
}

/** The file's text piped into a parser; a reading error (not UTF-8) ends the parser with it. */
function fromText<T extends NodeJS.WritableStream & NodeJS.ReadableStream>(path: string, parser: T): T {
  const source = Readable.from(utf8Text(path));
  source.on("error", (error) => (parser as unknown as { destroy(error: Error): void }).destroy(error));
  source.pipe(parser);
  return parser;
}

async function sniffDelimiter(path: string): Promise<string> {
  const file = await open(path);
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(64 * 1024), 0, 64 * 1024, 0);
    const firstLine = buffer.subarray(0, bytesRead).toString("utf8").split(/\r?\n/, 1)[0] ?? "";
    const counts = [",", ";", "\t"].map((delimiter) => ({ delimiter, count: firstLine.split(delimiter).length - 1 }));
    return counts.reduce((best, next) => (next.count > best.count ? next : best)).delimiter;
  } finally {
    await file.close();
  }
}

async function* csvRows(path: string): AsyncGenerator<ImportRow> {
  const parser = fromText(
    path,
    parseCsv({
      bom: true,
      columns: (header: string[]) => header.map((name) => name.trim()),
      delimiter: await sniffDelimiter(path),
      max_record_size: MAX_ROW_CHARS,
      skip_empty_lines: true,
    }),
  );
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<Record<string, string>>) {
      row += 1;
      yield record;
    }
  } catch (error) {
    throw csvProblem(error, row + 1);
  }
}

function csvProblem(error: unknown, row: number): unknown {
  if (error instanceof ImportFileError) return error;
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof ImportFileError) return cause;
  if (!(error instanceof CsvError)) return error;
  switch (error.code) {
    case "CSV_MAX_RECORD_SIZE":
      return new ImportFileError({ key: "transfer.rowTooLong", params: { max: "1 MiB" } }, row);
    case "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH":
    case "CSV_RECORD_INCONSISTENT_COLUMNS":
      return new ImportFileError({ key: "transfer.csvColumns" }, row);
    default:
      return new ImportFileError({ key: "transfer.csvQuotes" }, row);
  }
}

async function* ndjsonRows(path: string): AsyncGenerator<ImportRow> {
  let pending = "";
  let row = 0;
  const parse = (line: string): ImportRow | null => {
    const text = line.replace(/^\uFEFF/, "").trim();
    if (!text) return null;
    row += 1;
    return objectRow(text, row);
  };
  for await (const text of utf8Text(path)) {
    pending += text;
    let newline = pending.indexOf("\n");
    while (newline >= 0) {
      const parsed = parse(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
      if (parsed) yield parsed;
      newline = pending.indexOf("\n");
    }
    if (pending.length > MAX_ROW_CHARS) throw new ImportFileError({ key: "transfer.rowTooLong", params: { max: "1 MiB" } }, row + 1);
  }
  const last = parse(pending);
  if (last) yield last;
}

function objectRow(text: string, row: number): ImportRow {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ImportFileError({ key: "transfer.badJsonRow" }, row);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new ImportFileError({ key: "transfer.notObject" }, row);
  return value as ImportRow;
}

async function* jsonRows(path: string): AsyncGenerator<ImportRow> {
  const elements = fromText(path, streamArray.withParserAsStream({ maxDepth: 64, maxPackedLength: MAX_ROW_CHARS }));
  let row = 0;
  try {
    for await (const { value } of elements as AsyncIterable<{ value: unknown }>) {
      row += 1;
      if (!value || typeof value !== "object" || Array.isArray(value)) throw new ImportFileError({ key: "transfer.notObject" }, row);
      yield value as ImportRow;
    }
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    if ((error as { cause?: unknown }).cause instanceof ImportFileError) throw (error as { cause: ImportFileError }).cause;
    if (error instanceof RangeError) throw new ImportFileError({ key: "transfer.rowTooLong", params: { max: "1 MiB" } }, row + 1);
    throw new ImportFileError({ key: "transfer.badJson" }, row + 1);
  }
}
