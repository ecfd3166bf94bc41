import { access, copyFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { AppLoadContext } from "react-router";
import type { Bucket } from "@server/content/buckets";
import { createImportRun, type ImportRun } from "@server/content/import-documents";
import { importRows, isImportFormat, type ImportFormat } from "@server/content/import-source";
import { HttpError } from "@server/errors";
import type { UploadedFile } from "@server/media/upload";
import { documentColumns, ID_COLUMN } from "@core/content/columns";

/* The import pages' server side (issue 34): the uploaded file kept for its runs, a run started, the mapping's choices. */

/** The largest file an import takes: 100,000 documents of a few kilobytes each. */
export const MAX_IMPORT_BYTES = 512 * 1024 * 1024;

/** The format a file's name says, or a 400. */
export function formatOfName(name: string): ImportFormat {
  const extension = path.extname(name).slice(1).toLowerCase();
  const format = extension === "jsonl" ? "ndjson" : extension;
  if (!isImportFormat(format)) throw new HttpError(400, "transfer.badFileType");
  return format;
}

/** Moves an upload into DATA_DIR/imports, where it waits for its runs. */
export async function keepImportFile(context: AppLoadContext, file: UploadedFile, format: ImportFormat): Promise<string> {
  const target = path.join(await context.imports.folder(), `${randomUUID()}.${format}`);
  await rename(file.temporaryPath, target).catch(async (error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    await copyFile(file.temporaryPath, target);
    await rm(file.temporaryPath, { force: true });
  });
  return target;
}

/** Creates a run of a kept file and starts it in the background. */
export async function startRun(context: AppLoadContext, input: Parameters<typeof createImportRun>[1]): Promise<ImportRun> {
  const run = await createImportRun(context.db, input);
  context.imports.start(run);
  return run;
}

/** Whether a run's file is still kept (an import removes it when done). */
export const fileKept = (run: ImportRun): Promise<boolean> =>
  access(run.filePath).then(
    () => true,
    () => false,
  );

/** A CSV's headers (its first row's keys), for the mapping; none for JSON. */
export async function fileHeaders(run: ImportRun): Promise<string[]> {
  if (run.format !== "csv") return [];
  try {
    for await (const row of importRows(run.filePath, "csv")) return Object.keys(row);
  } catch {
    // The run's report says what is wrong with the file.
  }
  return [];
}

/** What a CSV's header may fill: the bucket's columns, and `_id`. */
export function mappingTargets(bucket: Pick<Bucket, "jsonSchema" | "locales">): string[] {
  return [ID_COLUMN, ...documentColumns(bucket.jsonSchema, bucket.locales).map((column) => column.header)];
}

/** The properties an external key may be: plain texts and numbers. */
export function keyCandidates(bucket: Pick<Bucket, "jsonSchema" | "locales">): string[] {
  return documentColumns(bucket.jsonSchema, bucket.locales)
    .filter((column) => column.locale === undefined && ["text", "number", "integer"].includes(column.kind))
    .map((column) => column.property);
}
