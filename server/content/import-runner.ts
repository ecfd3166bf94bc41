import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import type { Db } from "@server/db/client";
import type { MediaServices } from "@server/services";
import type { ScreenTable } from "@core/content/screen-table";
import { normalizeLocale, type Locale } from "@core/locales";
import { USER_COLUMNS, type User } from "@server/accounts/users";
import { findBucketById } from "./buckets";
import { runImport, takeOverStaleImportRuns, type ImportRun } from "./import-documents";

/*
 * Runs the imports started from the web (issue 34) in this server's background, one batch after another, and takes
 * over those a stopped or crashed server left (no batch for a minute: import-documents.ts), at its start and every
 * half minute. The files (and their ZIPs) wait in DATA_DIR/imports until their import is done or failed.
 */
const STALE_CHECK_MS = 30_000;

export class ImportRunner {
  private readonly active = new Map<string, Promise<void>>();
  private stopping = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly services: {
      db: Db;
      media: Pick<MediaServices, "storage" | "jobs" | "ffmpeg">;
      screens: ScreenTable;
      logger: Logger;
      dataDir: string;
      defaultLocale: Locale;
    },
  ) {}

  /** Where an uploaded import file is kept (made when missing). */
  async folder(): Promise<string> {
    const folder = path.resolve(this.services.dataDir, "imports");
    await mkdir(folder, { recursive: true });
    return folder;
  }

  /** Starts a run in the background (once: a run already going is left as it is). */
  start(run: ImportRun): void {
    if (this.stopping || this.active.has(run.id)) return;
    const done = this.run(run)
      .catch((error: unknown) => this.services.logger.error({ err: error, importRun: run.id }, "import run stopped"))
      .finally(() => this.active.delete(run.id));
    this.active.set(run.id, done);
  }

  /** Resumes the runs a stopped or crashed server left, now and every half minute. */
  begin(): void {
    const resume = () =>
      void this.resumeUnfinished().catch((error: unknown) => this.services.logger.error({ err: error }, "resuming imports failed"));
    resume();
    this.timer = setInterval(resume, STALE_CHECK_MS);
    this.timer.unref();
  }

  /** The runs a stopped or crashed server left running, taken over and started. */
  async resumeUnfinished(): Promise<void> {
    if (this.stopping) return;
    for (const run of await takeOverStaleImportRuns(this.services.db)) this.start(run);
  }

  /** Lets the runs' current batches end; the rest is taken over after the next start. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.all(this.active.values());
  }

  private async run(run: ImportRun): Promise<void> {
    const { db, logger } = this.services;
    const bucket = await findBucketById(db, run.bucketId);
    const { rows } = await db.query<User>(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = $1`, [run.userId]);
    const [user] = rows;
    if (!bucket || !user) {
      await db.query(`UPDATE import_runs SET status = 'failed', failure = $2, updated_at = now() WHERE id = $1`, [
        run.id,
        { message: "The bucket or the user who started the import is gone.", row: null },
      ]);
      return;
    }
    const locale = normalizeLocale(run.options.locale) ?? normalizeLocale(user.locale) ?? this.services.defaultLocale;
    const deps = { db, media: this.services.media, screens: this.services.screens, logger };
    const ffmpeg = this.services.media.ffmpeg;
    const finished = await runImport({ deps, actor: user, bucket, locale, ffmpeg, shouldStop: () => this.stopping }, run);
    logger.info({ importRun: run.id, status: finished.status, rows: finished.rowsDone }, "import run ended");
    if (finished.status !== "running" && !finished.dryRun)
      for (const file of [finished.filePath, finished.mediaPath]) if (file) await rm(file, { force: true });
  }
}
