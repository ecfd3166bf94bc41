import { access, copyFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { AppLoadContext } from "react-router";
import type { Bucket } from "@server/content/buckets";
import { createImportRun, findImportRun, type ImportRun } from "@server/content/import-documents";
import { importRows, isImportFormat, type ImportFormat } from "@server/content/import-source";
import { HttpError } from "@server/errors";
import { columnRole } from "@server/content/import-fields";
import type { MediaStorage } from "@server/media/storage";
import { receiveMultipart, type IncomingBody, type UploadedFile } from "@server/media/upload";
import { requireBucketAccess } from "@server/web/guards";
import { documentColumns, ID_COLUMN } from "@core/content/columns";

/* The import pages' server side (issue 34): the uploaded file kept for its runs, a run started, the mapping's choices. */

/** The largest file an import takes: 100,000 documents of a few kilobytes each. */
export const MAX_IMPORT_BYTES = 512 * 1024 * 1024;

/** The largest ZIP of images and files an import takes beside its data. */
export const MAX_IMPORT_ZIP_BYTES = 2 * 1024 ** 3;

/** The upload form's post: the data file (`file`) and, optionally, a ZIP of images and files (`media`). */
export async function receiveImportUpload(
  body: IncomingBody,
  storage: MediaStorage,
): Promise<{ file: UploadedFile; zip: UploadedFile | null }> {
  const received = await receiveMultipart<"file" | "media">(body, storage, {
    limits: { fields: 10, fieldSize: 1024, parts: 12, files: 2 },
    oversize: { mode: "refuse" },
    planFile(partName, filename) {
      // A file input left empty still sends its part, without a name.
      if (!filename || (partName !== "file" && partName !== "media")) return null;
      return { maxBytes: partName === "file" ? MAX_IMPORT_BYTES : MAX_IMPORT_ZIP_BYTES, tag: partName };
    },
  });
  const find = (tag: "file" | "media") => received.files.find((file) => file.tag === tag)?.file ?? null;
  const [file, zip] = [find("file"), find("media")];
  if (!file || (zip && path.extname(zip.originalFilename).toLowerCase() !== ".zip")) {
    await Promise.all(received.files.map((received) => storage.remove(received.file.temporaryPath)));
    throw new HttpError(400, file ? "transfer.badZipType" : "transfer.noFile");
  }
  return { file, zip };
}

/** The format a file's name says, or a 400. */
export function formatOfName(name: string): ImportFormat {
  const extension = path.extname(name).slice(1).toLowerCase();
  const format = extension === "jsonl" ? "ndjson" : extension;
  if (!isImportFormat(format)) throw new HttpError(400, "transfer.badFileType");
  return format;
}

/** Moves an upload (the data, as its format's file, or its ZIP) into DATA_DIR/imports, where it waits for its runs. */
export async function keepImportFile(context: AppLoadContext, file: UploadedFile, extension: ImportFormat | "zip"): Promise<string> {
  const target = path.join(await context.imports.folder(), `${randomUUID()}.${extension}`);
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

/** Whether a run's file (and its ZIP) are still kept (an import removes them when done). */
export async function fileKept(run: ImportRun): Promise<boolean> {
  const kept = (file: string) =>
    access(file).then(
      () => true,
      () => false,
    );
  return (await kept(run.filePath)) && (!run.mediaPath || (await kept(run.mediaPath)));
}

/** An import's run, for its pages: of this bucket, and the user's own (an admin sees everyone's); else 404. */
export async function requireRun(request: Request, context: AppLoadContext, params: { bucket: string; runId: string }) {
  const { user, bucket } = await requireBucketAccess(request, context, params.bucket);
  const run = await findImportRun(context.db, params.runId);
  if (!run || run.bucketId !== bucket.id || (run.userId !== user.id && !user.permissions.includes("admin")))
    throw new HttpError(404, "errors.notFound");
  return { user, bucket, run };
}

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

/** The mapping's targets that name media or references (a hint beside the mapping). */
export function namingColumns(bucket: Pick<Bucket, "jsonSchema" | "locales">): { media: string[]; references: string[] } {
  const columns = documentColumns(bucket.jsonSchema, bucket.locales);
  const having = (role: "media" | "reference") =>
    columns.filter((column) => columnRole(bucket.jsonSchema, column.property) === role).map((column) => column.header);
  return { media: having("media"), references: having("reference") };
}
