import type { Author } from "@server/accounts/users";
import { recordActivity } from "@server/admin/activity";
import type { Db, Queryable } from "@server/db/client";
import { dataOfCells, documentColumns, ID_COLUMN, type CellProblem, type DocumentColumn } from "@core/content/columns";
import { checkDocument } from "@core/form/resolve";
import { isUuid } from "@core/ids";
import type { Locale } from "@core/locales";
import { translateMessage } from "@core/messages";
import { isDeepStrictEqual } from "node:util";
import type { Bucket } from "./buckets";
import { ImportFileError, importRows, type ImportFormat, type ImportRow } from "./import-source";
import { saveDocument, type SaveDeps } from "./save";
import { compileBucketSchema } from "./validator";

/*
 * Importing documents into a bucket from a file (issue 34). A run (import_runs, migration 043) reads the file's rows
 * (import-source.ts) in batches: each row becomes a document's data (a CSV's cells through the mapping and the
 * bucket's columns, core/content/columns.ts; a JSON row as it is), finds the document it updates (by `_id`, or by the
 * external key: a property whose value names the same document across imports) and goes through the one front door,
 * saveDocument, so it is checked with the editor's validator and messages and saved as a normal version by the user
 * who ran it. A dry run checks the same and writes nothing. A batch's documents and the run's progress are written in
 * one transaction: a run cut off resumes (resumeImport) after its last whole batch, no row twice, none skipped.
 * A row whose document is the same as the one it names changes nothing (a second import of the same file writes no
 * version).
 */

/** Rows per batch: per transaction, and per progress step. */
export const IMPORT_BATCH = 100;
/** The problems a run keeps (row, field, message); `refused` counts every refused row. */
export const MAX_KEPT_PROBLEMS = 100;

export interface ImportSettings {
  /** CSV only: a file header → the bucket column it fills (core/content/columns.ts); other headers fill their own name. */
  mapping: Record<string, string>;
  /** The property whose value names a document across imports (the external key); null: only `_id` does. */
  key: string | null;
  /** The language of the run's messages: the interface's of whoever started it from the web. */
  locale?: string;
  /** An import started from a dry run: how many rows that run read (its progress bar's end). */
  expectedRows?: number;
}

export interface ImportProblem {
  row: number;
  field: string;
  message: string;
}

export interface ImportRun {
  id: string;
  bucketId: string;
  userId: string | null;
  dryRun: boolean;
  format: ImportFormat;
  filePath: string;
  fileName: string;
  options: ImportSettings;
  status: "running" | "done" | "failed";
  rowsDone: number;
  created: number;
  updated: number;
  unchanged: number;
  refused: number;
  problems: ImportProblem[];
  failure: { message: string; row: number | null } | null;
  /** The token of whoever runs it now: a batch is written only by the run's runner (migration 043). */
  runner: string;
  createdAt: Date;
  updatedAt: Date;
}

const RUN_COLUMNS = `id, bucket_id AS "bucketId", user_id AS "userId", dry_run AS "dryRun", format, file_path AS "filePath",
  file_name AS "fileName", options, status, rows_done AS "rowsDone", created, updated, unchanged, refused, problems, failure,
  runner, created_at AS "createdAt", updated_at AS "updatedAt"`;

/** How long a running run's last batch may be ago before its runner counts as gone (a stopped or crashed server). */
const STALE_RUN = "1 minute";

export async function findImportRun(db: Queryable, id: string): Promise<ImportRun | null> {
  if (!isUuid(id)) return null;
  const { rows } = await db.query<ImportRun>(`SELECT ${RUN_COLUMNS} FROM import_runs WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/**
 * Takes over the runs whose runner is gone (no batch for a minute: its server stopped or crashed), oldest first: they
 * are this caller's to resume.
 */
export async function takeOverStaleImportRuns(db: Queryable): Promise<ImportRun[]> {
  const { rows } = await db.query<ImportRun>(
    `UPDATE import_runs SET runner = gen_random_uuid(), heartbeat_at = now()
     WHERE status = 'running' AND heartbeat_at < now() - interval '${STALE_RUN}'
     RETURNING ${RUN_COLUMNS}`,
  );
  return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

/**
 * Takes a running run over at once (`npm run vitrine -- import-documents --resume`): a runner still at it finds its
 * next batch refused and stops, so no row is imported twice.
 */
export async function takeOverImportRun(db: Queryable, id: string): Promise<ImportRun | null> {
  const { rows } = await db.query<ImportRun>(
    `UPDATE import_runs SET runner = gen_random_uuid(), heartbeat_at = now() WHERE id = $1 AND status = 'running' RETURNING ${RUN_COLUMNS}`,
    [id],
  );
  return rows[0] ?? null;
}

/** Another runner took the run over: this one's batch is undone and it stops. */
class RunTakenOver extends Error {}

/** A new run of a file already stored at `filePath` (the caller keeps it until the run is done). */
export async function createImportRun(
  db: Queryable,
  input: {
    bucket: Pick<Bucket, "id">;
    user: Pick<Author, "id">;
    dryRun: boolean;
    format: ImportFormat;
    filePath: string;
    fileName: string;
    settings: ImportSettings;
  },
): Promise<ImportRun> {
  const { rows } = await db.query<ImportRun>(
    `INSERT INTO import_runs (bucket_id, user_id, dry_run, format, file_path, file_name, options)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${RUN_COLUMNS}`,
    [input.bucket.id, input.user.id, input.dryRun, input.format, input.filePath, input.fileName, JSON.stringify(input.settings)],
  );
  const [run] = rows;
  if (!run) throw new Error("The import run was not recorded");
  return run;
}

/** What a run needs besides its row: how it saves, who runs it, in which bucket, and the language of its messages. */
export interface ImportContext {
  deps: SaveDeps & { db: Db };
  actor: Author & { name: string };
  bucket: Bucket;
  locale: Locale;
  /** Told after each batch, with the rows done so far (a progress bar, the CLI's progress lines). */
  onBatch?: (rowsDone: number) => void;
  /** Asked after each batch: true leaves the run where it is, running, for a resume (the server stops). */
  shouldStop?: () => boolean;
}

/** A document a row names: its id, the version it is at and its data. */
interface Named {
  contentId: string;
  versionId: string;
  data: Record<string, unknown>;
}

/**
 * Runs (or resumes) an import to its end: the rows after `rowsDone`, a batch at a time. Answers the finished run. A
 * file that cannot be read to its end fails the run with the reason and the row; the batches before it stay.
 */
export async function runImport(context: ImportContext, run: ImportRun): Promise<ImportRun> {
  const { deps, bucket } = context;
  if (run.options.key) await collectKeys(deps.db, run, bucket.id, run.options.key);
  const columns = documentColumns(bucket.jsonSchema, bucket.locales);
  const convert = rowConverter(run, columns);
  let row = 0;
  let batch: Array<{ row: number; source: ImportRow }> = [];
  try {
    for await (const source of importRows(run.filePath, run.format)) {
      row += 1;
      if (row <= run.rowsDone) continue;
      batch.push({ row, source });
      if (batch.length === IMPORT_BATCH) {
        await importBatch(context, run, batch, convert);
        batch = [];
        if (context.shouldStop?.()) return await currentRun(deps.db, run.id);
      }
    }
    if (batch.length) await importBatch(context, run, batch, convert);
  } catch (caught) {
    if (caught instanceof RunTakenOver) return currentRun(deps.db, run.id);
    const error = (caught as NodeJS.ErrnoException).code === "ENOENT" ? new ImportFileError({ key: "transfer.fileGone" }) : caught;
    if (!(error instanceof ImportFileError)) throw error;
    // The rows read before the one that cannot be are imported; the run stops there.
    if (batch.length) await importBatch(context, run, batch, convert);
    const failure = { message: translateMessage(context.locale, error.problem), row: error.row };
    await deps.db.query(`UPDATE import_runs SET status = 'failed', failure = $2, updated_at = now() WHERE id = $1 AND runner = $3`, [
      run.id,
      failure,
      run.runner,
    ]);
    await deps.db.query(`DELETE FROM import_keys WHERE run_id = $1`, [run.id]);
    return currentRun(deps.db, run.id);
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
          rows: finished.rowsDone,
          created: finished.created,
          updated: finished.updated,
          refused: finished.refused,
        },
      });
  });
  return currentRun(deps.db, run.id);
}

/** A run as it is now (it exists: its rows go only with its bucket). */
async function currentRun(db: Queryable, id: string): Promise<ImportRun> {
  const run = await findImportRun(db, id);
  if (!run) throw new Error(`Import run ${id} is gone (its bucket was deleted)`);
  return run;
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

type RowConverter = (source: ImportRow) => { id: string | null; data: Record<string, unknown>; problems: CellProblem[] };

/** A row's document id (`_id`, if any) and data: a CSV's cells through the mapping and the columns, a JSON row as it is. */
function rowConverter(run: ImportRun, columns: readonly DocumentColumn[]): RowConverter {
  if (run.format !== "csv")
    return (source) => {
      const { [ID_COLUMN]: id, ...data } = source;
      return { id: typeof id === "string" && id.trim() ? id.trim() : null, data, problems: [] };
    };
  return (source) => {
    const cells: Record<string, string> = {};
    for (const [header, text] of Object.entries(source))
      cells[run.options.mapping[header] ?? header] = typeof text === "string" ? text : "";
    const { data, problems } = dataOfCells(cells, columns);
    const id = cells[ID_COLUMN]?.trim() || null;
    return { id, data, problems };
  };
}

interface BatchCounts {
  created: number;
  updated: number;
  unchanged: number;
  refused: number;
  problems: ImportProblem[];
}

async function importBatch(
  context: ImportContext,
  run: ImportRun,
  batch: ReadonlyArray<{ row: number; source: ImportRow }>,
  convert: RowConverter,
): Promise<void> {
  const { deps, bucket, locale, actor } = context;
  const counts: BatchCounts = { created: 0, updated: 0, unchanged: 0, refused: 0, problems: [] };
  const refuse = (row: number, problems: Array<{ field: string; message: string }>) => {
    counts.refused += 1;
    counts.problems.push(...problems.map((problem) => ({ row, ...problem })));
  };
  const { schema, validate, problems: schemaProblems } = compileBucketSchema(bucket);
  await deps.db.transaction(async (tx) => {
    const rows = batch.map(({ row, source }) => ({ row, ...convert(source) }));
    const named = await namedDocuments(tx, run, bucket, rows);
    for (const row of rows) {
      if (row.problems.length) {
        refuse(
          row.row,
          row.problems.map((problem) => ({ field: problem.header, message: translateMessage(locale, problem.message) })),
        );
        continue;
      }
      if (row.id !== null && !isUuid(row.id)) {
        refuse(row.row, [{ field: ID_COLUMN, message: translateMessage(locale, { key: "transfer.badId" }) }]);
        continue;
      }
      const keyValue = run.options.key ? keyOf(row.data[run.options.key]) : null;
      const existing = (row.id ? named.byId.get(row.id) : undefined) ?? (keyValue ? named.byKey.get(keyValue) : undefined);
      if (row.id && named.elsewhere.has(row.id)) {
        refuse(row.row, [{ field: ID_COLUMN, message: translateMessage(locale, { key: "transfer.idElsewhere" }) }]);
        continue;
      }
      if (existing && isDeepStrictEqual(existing.data, row.data)) {
        counts.unchanged += 1;
        continue;
      }
      if (run.dryRun) {
        if (!validate)
          refuse(
            row.row,
            schemaProblems.map((message) => ({ field: "", message })),
          );
        else {
          const checked = checkDocument(row.data, schema, validate, locale);
          if (!checked.ok) refuse(row.row, fieldProblems(checked.errors.byField, checked.message));
          else if (existing) counts.updated += 1;
          else {
            counts.created += 1;
            if (keyValue) named.byKey.set(keyValue, { contentId: "", versionId: "", data: row.data });
          }
        }
        continue;
      }
      const saved = await saveDocument(
        { ...deps, db: tx },
        {
          actor,
          bucket,
          locale,
          document: { payload: row.data },
          ...(existing ? { contentId: existing.contentId, baseVersionId: existing.versionId } : row.id ? { newContentId: row.id } : {}),
        },
      );
      if (!saved.ok) {
        refuse(row.row, fieldProblems(saved.errors.byField, saved.message));
        continue;
      }
      if (saved.created) counts.created += 1;
      else counts.updated += 1;
      const now = { contentId: saved.version.contentId, versionId: saved.version.versionId, data: saved.version.data };
      named.byId.set(now.contentId, now);
      if (keyValue) {
        named.byKey.set(keyValue, now);
        await tx.query(`INSERT INTO import_keys (run_id, key_value, content_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
          run.id,
          keyValue,
          now.contentId,
        ]);
      }
    }
    const progressed = await tx.query(
      `UPDATE import_runs SET heartbeat_at = now(), rows_done = rows_done + $2, created = created + $3, updated = updated + $4, unchanged = unchanged + $5,
         refused = refused + $6,
         problems = CASE WHEN jsonb_array_length(problems) >= $7 THEN problems
                         ELSE (SELECT coalesce(jsonb_agg(p), '[]') FROM (SELECT p FROM jsonb_array_elements(problems || $8::jsonb) AS p LIMIT $7) kept) END,
         updated_at = now()
       WHERE id = $1 AND runner = $9
       RETURNING id`,
      [
        run.id,
        batch.length,
        counts.created,
        counts.updated,
        counts.unchanged,
        counts.refused,
        MAX_KEPT_PROBLEMS,
        JSON.stringify(counts.problems),
        run.runner,
      ],
    );
    if (progressed.rows.length === 0) throw new RunTakenOver();
  });
  run.rowsDone += batch.length;
  context.onBatch?.(run.rowsDone);
}

/** A refusal's messages, one problem each ("" for the document as a whole: the refusal's own message). */
function fieldProblems(byField: Record<string, string[]>, message: string): Array<{ field: string; message: string }> {
  const problems = Object.entries(byField).flatMap(([field, messages]) => messages.map((text) => ({ field, message: text })));
  return problems.length ? problems : [{ field: "", message }];
}

const keyOf = (value: unknown): string | null => {
  if (typeof value !== "string" && typeof value !== "number") return null;
  const text = String(value).trim();
  return text || null;
};

/** The documents a batch's rows name: by `_id` in this bucket (and ids taken in another), by the run's key. */
async function namedDocuments(
  tx: Queryable,
  run: ImportRun,
  bucket: Pick<Bucket, "id">,
  rows: ReadonlyArray<{ id: string | null; data: Record<string, unknown> }>,
): Promise<{ byId: Map<string, Named>; byKey: Map<string, Named>; elsewhere: Set<string> }> {
  const ids = rows.map((row) => row.id).filter((id): id is string => id !== null && isUuid(id));
  const { key } = run.options;
  const keys = key ? rows.map((row) => keyOf(row.data[key])).filter((value): value is string => value !== null) : [];
  const byId = new Map<string, Named>();
  const byKey = new Map<string, Named>();
  const elsewhere = new Set<string>();
  if (ids.length) {
    const { rows: found } = await tx.query<Named & { bucketId: string }>(
      `SELECT c.content_id AS "contentId", c.latest_version_id AS "versionId", v.data, c.bucket_id AS "bucketId"
       FROM contents c JOIN versions v ON v.version_id = c.latest_version_id
       WHERE c.content_id = ANY($1::uuid[])`,
      [ids],
    );
    for (const document of found) {
      if (document.bucketId === bucket.id) byId.set(document.contentId, document);
      else elsewhere.add(document.contentId);
    }
  }
  if (keys.length) {
    const { rows: found } = await tx.query<Named & { keyValue: string }>(
      `SELECT k.key_value AS "keyValue", c.content_id AS "contentId", c.latest_version_id AS "versionId", v.data
       FROM import_keys k
       JOIN contents c ON c.content_id = k.content_id
       JOIN versions v ON v.version_id = c.latest_version_id
       WHERE k.run_id = $1 AND k.key_value = ANY($2::text[])`,
      [run.id, keys],
    );
    for (const document of found) byKey.set(document.keyValue, document);
  }
  return { byId, byKey, elsewhere };
}
