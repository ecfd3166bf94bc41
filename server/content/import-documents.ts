import { recordActivity } from "@server/admin/activity";
import type { Queryable } from "@server/db/client";
import { documentColumns } from "@core/content/columns";
import { translateMessage } from "@core/messages";
import { importBatch, rowConverter, type ImportContext } from "./import-batch";
import type { MediaSource } from "./import-media";
import { currentRun, RunTakenOver, type ImportRun } from "./import-runs";
import { ImportFileError, importRows, type ImportRow } from "./import-source";
import { openImportZip } from "./import-zip";

/*
 * Importing documents into a bucket from a file (issue 34). A run (import_runs, import-runs.ts) reads the file's rows
 * (import-source.ts) in batches (import-batch.ts): each row becomes a document's data (a CSV's cells through the
 * mapping and the bucket's columns, core/content/columns.ts; a JSON row as it is), its references by title and its
 * media from the run's ZIP or by id, finds the document it updates (by `_id`, or by the external key: a property whose
 * value names the same document across imports) and goes through the one front door, saveDocument, so it is checked
 * with the editor's validator and messages and saved as a normal version by the user who ran it. A dry run checks the
 * same and writes nothing. A batch's documents, media and problems and the run's progress are written in one
 * transaction: a run cut off resumes after its last whole batch, no row twice, none skipped. A row whose document is
 * the same as the one it names changes nothing (a second import of the same file writes no version).
 */

export {
  createImportRun,
  findImportRun,
  takeOverImportRun,
  takeOverStaleImportRuns,
  type ImportProblem,
  type ImportRun,
  type ImportSettings,
} from "./import-runs";
export { MAX_KEPT_PROBLEMS, type ImportContext } from "./import-batch";

/** Rows per batch: per transaction, and per progress step. */
export const IMPORT_BATCH = 100;

/**
 * Runs (or resumes) an import to its end: the rows after `rowsDone`, a batch at a time. Answers the finished run. A
 * file (or ZIP) that cannot be read to its end fails the run with the reason and the row; the batches before it stay.
 */
export async function runImport(context: ImportContext, run: ImportRun): Promise<ImportRun> {
  const { deps, bucket } = context;
  if (run.options.key) await collectKeys(deps.db, run, bucket.id, run.options.key);
  const columns = documentColumns(bucket.jsonSchema, bucket.locales);
  const convert = rowConverter(run, bucket, columns);
  const media: MediaSource = {
    zip: null,
    bucketId: bucket.id,
    storage: deps.media.storage,
    ffmpeg: context.ffmpeg ?? null,
    hashes: new Map(),
  };
  let row = 0;
  let batch: Array<{ row: number; source: ImportRow }> = [];
  try {
    if (run.mediaPath) media.zip = await openImportZip(run.mediaPath);
    for await (const source of importRows(run.filePath, run.format)) {
      row += 1;
      if (row <= run.rowsDone) continue;
      batch.push({ row, source });
      if (batch.length === IMPORT_BATCH) {
        await importBatch(context, run, media, batch, convert);
        batch = [];
        if (context.shouldStop?.()) return await currentRun(deps.db, run.id);
      }
    }
    if (batch.length) await importBatch(context, run, media, batch, convert);
  } catch (caught) {
    if (caught instanceof RunTakenOver) return await currentRun(deps.db, run.id);
    const error = (caught as NodeJS.ErrnoException).code === "ENOENT" ? new ImportFileError({ key: "transfer.fileGone" }) : caught;
    if (!(error instanceof ImportFileError)) throw error;
    // The rows read before the one that cannot be are imported; the run stops there.
    if (batch.length) await importBatch(context, run, media, batch, convert);
    const failure = { message: translateMessage(context.locale, error.problem), row: error.row };
    await deps.db.query(`UPDATE import_runs SET status = 'failed', failure = $2, updated_at = now() WHERE id = $1 AND runner = $3`, [
      run.id,
      failure,
      run.runner,
    ]);
    await deps.db.query(`DELETE FROM import_keys WHERE run_id = $1`, [run.id]);
    return await currentRun(deps.db, run.id);
  } finally {
    media.zip?.close();
  }
  await deps.db.transaction(async (tx) => {
    const ended = await tx.query(`UPDATE import_runs SET status = 'done', updated_at = now() WHERE id = $1 AND runner = $2 RETURNING id`, [
      run.id,
      run.runner,
    ]);
    if (ended.rows.length === 0) return;
    await tx.query(`DELETE FROM import_keys WHERE run_id = $1`, [run.id]);
    const finished = await currentRun(tx, run.id);
    if (!run.dryRun)
      await recordActivity(tx, context.actor, {
        area: "document",
        action: "imported",
        subject: bucket.slug,
        details: {
          file: run.fileName,
          ...(run.mediaName ? { media: run.mediaName } : {}),
          rows: finished.rowsDone,
          created: finished.created,
          updated: finished.updated,
          refused: finished.refused,
        },
      });
  });
  return currentRun(deps.db, run.id);
}

/** The key's value of each of the bucket's documents, for the run (again on a resume: a document made since counts). */
async function collectKeys(db: Queryable, run: ImportRun, bucketId: string, key: string): Promise<void> {
  await db.query(
    `INSERT INTO import_keys (run_id, key_value, content_id)
     SELECT $1, btrim(v.data ->> $3), c.content_id
     FROM contents c JOIN versions v ON v.version_id = c.latest_version_id
     WHERE c.bucket_id = $2 AND coalesce(btrim(v.data ->> $3), '') <> ''
     ON CONFLICT DO NOTHING`,
    [run.id, bucketId, key],
  );
}
