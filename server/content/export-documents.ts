import { stringify } from "csv-stringify/sync";
import type { Queryable } from "@server/db/client";
import { cellsOf, documentColumns, ID_COLUMN, type DocumentFormat } from "@core/content/columns";
import type { Bucket } from "./buckets";
import { selectionWhere, type DocumentSelection } from "./document-selection";

/*
 * A bucket's documents as a download (issue 34): all of them, a search's matches or chosen ones, oldest first, as
 * CSV (a column per field and locale: core/content/columns.ts), a JSON array or NDJSON (each document's data with its
 * `_id`). Streamed: documents are read a page at a time, so an export of 100,000 holds one page in memory.
 */

export { isDocumentFormat as isExportFormat, type DocumentFormat as ExportFormat } from "@core/content/columns";
type ExportFormat = DocumentFormat;

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  json: "application/json; charset=utf-8",
  ndjson: "application/x-ndjson; charset=utf-8",
};

/** Which documents: every one, or the matches of a search, in a publication state, or these contentIds. */
export type ExportSelection = DocumentSelection;

const PAGE = 500;

interface ExportedDocument {
  contentId: string;
  data: Record<string, unknown>;
}

/** The selected documents' latest versions, oldest first, a page at a time. */
export async function* exportedDocuments(
  db: Queryable,
  bucket: Pick<Bucket, "id" | "jsonSchema">,
  selection: ExportSelection = {},
): AsyncGenerator<ExportedDocument> {
  const { where, values } = selectionWhere(bucket, selection);
  let after: { createdAt: Date; contentId: string } | null = null;
  for (;;) {
    const keyset: string = after ? `AND (c.created_at, c.content_id) > ($${values.length + 1}, $${values.length + 2}::uuid)` : "";
    const found = await db.query<ExportedDocument & { createdAt: Date }>(
      `SELECT c.content_id AS "contentId", c.created_at AS "createdAt", v.data
       FROM contents c JOIN versions v ON v.version_id = c.latest_version_id
       WHERE ${where} ${keyset}
       ORDER BY c.created_at, c.content_id
       LIMIT ${PAGE}`,
      after ? [...values, after.createdAt, after.contentId] : values,
    );
    const rows: Array<ExportedDocument & { createdAt: Date }> = found.rows;
    for (const row of rows) yield { contentId: row.contentId, data: row.data };
    const last = rows.at(-1);
    if (rows.length < PAGE || !last) return;
    after = { createdAt: last.createdAt, contentId: last.contentId };
  }
}

/** The export's text, piece by piece: the CSV's header (after a byte-order mark, for spreadsheets) or the JSON's bracket first. */
export async function* exportText(
  format: ExportFormat,
  bucket: Pick<Bucket, "jsonSchema" | "locales">,
  documents: AsyncIterable<ExportedDocument>,
): AsyncGenerator<string> {
  if (format === "csv") {
    const columns = documentColumns(bucket.jsonSchema, bucket.locales);
    yield "\uFEFF" + stringify([[ID_COLUMN, ...columns.map((column) => column.header)]]);
    for await (const document of documents) yield stringify([[document.contentId, ...cellsOf(document.data, columns)]]);
    return;
  }
  let first = true;
  if (format === "json") yield "[";
  for await (const document of documents) {
    const line = JSON.stringify({ [ID_COLUMN]: document.contentId, ...document.data });
    yield format === "ndjson" ? `${line}\n` : `${first ? "\n" : ",\n"}${line}`;
    first = false;
  }
  if (format === "json") yield first ? "]\n" : "\n]\n";
}

/** The download's file name: the bucket's slug and the day. */
export const exportFileName = (slug: string, format: ExportFormat, now = new Date()) =>
  `${slug}-${now.toISOString().slice(0, 10)}.${format}`;
