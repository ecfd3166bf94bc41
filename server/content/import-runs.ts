import type { Author } from "@server/accounts/users";
import type { Queryable } from "@server/db/client";
import { isUuid } from "@core/ids";
import type { Bucket } from "./buckets";
import type { ImportFormat } from "./import-source";

/*
 * An import's runs as rows (import_runs, migrations 043 and 044): made, found, and taken over by a runner when the
 * one that held them is gone. What a run does is import-documents.ts.
 */

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
  /** The ZIP of images and files uploaded beside the data, if any (migration 044). */
  mediaPath: string | null;
  mediaName: string | null;
  options: ImportSettings;
  status: "running" | "done" | "failed";
  rowsDone: number;
  created: number;
  updated: number;
  unchanged: number;
  refused: number;
  /** The first MAX_KEPT_PROBLEMS problems; all of them are in import_problems (import-problems.ts). */
  problems: ImportProblem[];
  failure: { message: string; row: number | null } | null;
  /** The token of whoever runs it now: a batch is written only by the run's runner (migration 043). */
  runner: string;
  createdAt: Date;
  updatedAt: Date;
}

const RUN_COLUMNS = `id, bucket_id AS "bucketId", user_id AS "userId", dry_run AS "dryRun", format, file_path AS "filePath",
  file_name AS "fileName", media_path AS "mediaPath", media_name AS "mediaName", options, status, rows_done AS "rowsDone",
  created, updated, unchanged, refused, problems, failure, runner, created_at AS "createdAt", updated_at AS "updatedAt"`;

/** How long a running run's last batch may be ago before its runner counts as gone (a stopped or crashed server). */
const STALE_RUN = "1 minute";

export async function findImportRun(db: Queryable, id: string): Promise<ImportRun | null> {
  if (!isUuid(id)) return null;
  const { rows } = await db.query<ImportRun>(`SELECT ${RUN_COLUMNS} FROM import_runs WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** A run as it is now (it exists: its rows go only with its bucket). */
export async function currentRun(db: Queryable, id: string): Promise<ImportRun> {
  const run = await findImportRun(db, id);
  if (!run) throw new Error(`Import run ${id} is gone (its bucket was deleted)`);
  return run;
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
export class RunTakenOver extends Error {}

/** A new run of a file (and a ZIP) already stored at their paths (the caller keeps them until the run is done). */
export async function createImportRun(
  db: Queryable,
  input: {
    bucket: Pick<Bucket, "id">;
    user: Pick<Author, "id">;
    dryRun: boolean;
    format: ImportFormat;
    filePath: string;
    fileName: string;
    media?: { path: string; name: string } | null;
    settings: ImportSettings;
  },
): Promise<ImportRun> {
  const { rows } = await db.query<ImportRun>(
    `INSERT INTO import_runs (bucket_id, user_id, dry_run, format, file_path, file_name, media_path, media_name, options)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${RUN_COLUMNS}`,
    [
      input.bucket.id,
      input.user.id,
      input.dryRun,
      input.format,
      input.filePath,
      input.fileName,
      input.media?.path ?? null,
      input.media?.name ?? null,
      JSON.stringify(input.settings),
    ],
  );
  const [run] = rows;
  if (!run) throw new Error("The import run was not recorded");
  return run;
}
