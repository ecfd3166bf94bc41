import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ScreenTable } from "@core/content/screen-table";
import { normalizeLocale, type Locale } from "@core/locales";
import { isPublicationState } from "@core/content/publication";
import { findUserByEmail } from "./accounts/users";
import { findBucketById, findBucketBySlug, type Bucket } from "./content/buckets";
import { exportedDocuments, exportText, isExportFormat } from "./content/export-documents";
import {
  createImportRun,
  findImportRun,
  MAX_KEPT_PROBLEMS,
  runImport,
  takeOverImportRun,
  type ImportRun,
} from "./content/import-documents";
import { isImportFormat } from "./content/import-source";
import type { Db } from "./db/client";
import type { MediaStorage } from "./media/storage";

/*
 * `npm run vitrine -- import-documents …` and `export-documents …` (issue 34): the CLI's adapters to the import
 * (server/content/import-documents.ts) and the export (export-documents.ts), as the user named by --as.
 */

/** The CLI says how far an import is every this many rows. */
const PROGRESS_EVERY = 1000;

type Deps = { db: Db; media: { storage: MediaStorage }; screens: ScreenTable };

async function bucketNamed(db: Db, slug: string): Promise<Bucket> {
  const bucket = await findBucketBySlug(db, slug);
  if (!bucket) throw new Error(`No bucket ${slug}`);
  return bucket;
}

/** `--map "File header=column,…"`: a CSV's headers → the bucket's columns (`title.nl`, `year`). */
export function parseMapping(text: string | undefined): Record<string, string> {
  const mapping: Record<string, string> = {};
  for (const pair of (text ?? "").split(",")) {
    if (!pair.trim()) continue;
    const at = pair.lastIndexOf("=");
    if (at <= 0) throw new Error(`--map takes "File header=column" pairs separated by commas; "${pair}" has no =`);
    mapping[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return mapping;
}

/** One line that sums a run up. */
export function describeRun(run: ImportRun): string {
  const counts = `${run.rowsDone} rows: ${run.created} new, ${run.updated} updated, ${run.unchanged} unchanged, ${run.refused} refused`;
  const what = run.dryRun ? "Dry run" : "Import";
  if (run.status === "failed")
    return `${what} ${run.id} stopped at row ${run.failure?.row ?? "?"}: ${run.failure?.message}. Before it, ${counts}.`;
  return `${what} ${run.id} ${run.status === "done" ? "done" : "stopped"}: ${counts}.`;
}

export async function importDocumentsCommand(
  deps: Deps,
  options: {
    bucket?: string;
    as: string;
    file?: string;
    zip?: string;
    format?: string;
    key?: string;
    map?: string;
    dryRun: boolean;
    resume?: string;
    defaultLocale: Locale;
  },
  progress: (text: string) => void,
): Promise<{ code: number; stdout: string; problems: string[] }> {
  const actor = await findUserByEmail(deps.db, options.as);
  if (!actor || actor.deactivatedAt) throw new Error(`No active user with email ${options.as}`);
  const locale = normalizeLocale(actor.locale) ?? options.defaultLocale;
  let run: ImportRun;
  let bucket: Bucket;
  if (options.resume) {
    const found = await findImportRun(deps.db, options.resume);
    if (!found) throw new Error(`No import run ${options.resume}`);
    const taken = await takeOverImportRun(deps.db, found.id);
    if (!taken) throw new Error(`Import run ${found.id} is ${found.status}: nothing to resume`);
    run = taken;
    const resumed = await findBucketById(deps.db, run.bucketId);
    if (!resumed) throw new Error(`The bucket of import run ${run.id} is gone`);
    bucket = resumed;
    progress(`Resuming ${run.dryRun ? "dry run" : "import"} ${run.id} after row ${run.rowsDone}.`);
  } else {
    if (!options.bucket || !options.file) throw new Error("--bucket and --file are required (or --resume RUN)");
    bucket = await bucketNamed(deps.db, options.bucket);
    const format = options.format ?? path.extname(options.file).slice(1).toLowerCase();
    if (!isImportFormat(format))
      throw new Error(`--format must be csv, json or ndjson (the file's extension is used when it is one of them)`);
    run = await createImportRun(deps.db, {
      bucket,
      user: actor,
      dryRun: options.dryRun,
      format,
      filePath: options.file,
      fileName: path.basename(options.file),
      media: options.zip ? { path: options.zip, name: path.basename(options.zip) } : null,
      settings: { mapping: parseMapping(options.map), key: options.key?.trim() || null },
    });
    progress(`${run.dryRun ? "Dry run" : "Import"} ${run.id} of ${run.fileName} into ${bucket.slug} (resume with --resume ${run.id}).`);
  }
  const onBatch = (rowsDone: number) => {
    if (rowsDone % PROGRESS_EVERY === 0) progress(`… ${rowsDone} rows`);
  };
  const finished = await runImport({ deps, actor, bucket, locale, onBatch }, run);
  const problems = finished.problems.map((problem) => `row ${problem.row}${problem.field ? `, ${problem.field}` : ""}: ${problem.message}`);
  if (finished.refused > 0 && problems.length === MAX_KEPT_PROBLEMS) problems.push(`… the first ${MAX_KEPT_PROBLEMS} problems shown`);
  return { code: finished.status === "done" ? 0 : 1, stdout: describeRun(finished), problems };
}

export async function exportDocumentsCommand(
  db: Db,
  options: { bucket: string; format?: string; out: string; q?: string; state?: string },
): Promise<string> {
  const bucket = await bucketNamed(db, options.bucket);
  const format = options.format ?? path.extname(options.out).slice(1).toLowerCase();
  if (!isExportFormat(format))
    throw new Error(`--format must be csv, json or ndjson (the file's extension is used when it is one of them)`);
  if (options.state !== undefined && !isPublicationState(options.state)) throw new Error(`--state must be a publication state`);
  const partial = `${options.out}.part`;
  let count = 0;
  const documents = exportedDocuments(db, bucket, { search: options.q, state: options.state ?? null });
  const counted = (async function* () {
    for await (const document of documents) {
      count += 1;
      yield document;
    }
  })();
  try {
    await pipeline(Readable.from(exportText(format, bucket, counted)), createWriteStream(partial));
    await rename(partial, options.out);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return `Exported ${count} documents of ${bucket.slug} to ${options.out}.`;
}
