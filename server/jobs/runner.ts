import { fork, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, rm, utimes } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import type { Db } from "../db/client";
import type { FfmpegTools } from "../media/ffmpeg";
import type { MediaStorage } from "../media/storage";
import { claimJob, finishJob, recordStills, renewLease, updateMediaDetails, type JobName, type JobRow, type MediaRow } from "../media/store";
import type { WorkerJob, WorkerMessage } from "./protocol";

export interface JobRunnerOptions {
  db: Db;
  storage: MediaStorage;
  logger: Logger;
  tools: FfmpegTools | null;
  /** The built worker module (build/server/media-worker.js). */
  workerPath: string;
  concurrency?: number;
  pollMs?: number;
  maxAttempts?: number;
}

/** Spec §8: what a failed job tells the user. */
export function jobFailureMessage(name: string, kind: string): string {
  if (name === "transcode") return `Error converting ${kind}`;
  if (name === "still-creation") return `Error getting stills from ${kind}`;
  return "An unknown error occured";
}

const STILL_COUNT = 5;
const PROGRESS_WRITE_MS = 1000;
const HEARTBEAT_MS = 10_000;

/**
 * Claims jobs from the database and hands each to a forked worker process.
 * The runner owns the database; a job whose runner or worker dies is claimed
 * again when its lease runs out, and fails for good after `maxAttempts`.
 */
export class JobRunner {
  private readonly concurrency: number;
  private readonly maxAttempts: number;
  private readonly idleWorkers: ChildProcess[] = [];
  private readonly busyWorkers = new Set<ChildProcess>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  /** Only a started runner claims jobs: with MEDIA_WORKERS=0 an upload's kick() does nothing. */
  private started = false;

  constructor(private readonly options: JobRunnerOptions) {
    this.concurrency = options.concurrency ?? 1;
    this.maxAttempts = options.maxAttempts ?? 3;
  }

  get available(): boolean {
    return Boolean(this.options.tools) && existsSync(this.options.workerPath);
  }

  start(): void {
    this.started = true;
    this.timer = setInterval(() => this.kick(), this.options.pollMs ?? 1000);
    this.timer.unref();
    this.kick();
  }

  /** Looks for work now (after an upload queued some). */
  kick(): void {
    if (this.polling || !this.started) return;
    this.polling = true;
    void this.fill()
      .catch((error: unknown) => this.options.logger.warn({ err: error }, "job runner: claiming jobs failed"))
      .finally(() => (this.polling = false));
  }

  /** Process ids of the workers running a job now (tests kill one to prove retries). */
  busyWorkerPids(): number[] {
    return [...this.busyWorkers].map((worker) => worker.pid!).filter(Boolean);
  }

  async stop(): Promise<void> {
    this.started = false;
    clearInterval(this.timer);
    for (const worker of [...this.idleWorkers, ...this.busyWorkers]) worker.kill("SIGKILL");
    this.idleWorkers.length = 0;
    this.busyWorkers.clear();
  }

  private async fill(): Promise<void> {
    while (this.started && this.available && this.busyWorkers.size < this.concurrency) {
      const job = await claimJob(this.options.db);
      if (!job) return;
      void this.run(job).catch((error: unknown) => this.options.logger.error({ err: error, jobId: job.id }, "job runner: recording a job failed"));
    }
  }

  private async run(job: JobRow & { media: MediaRow }): Promise<void> {
    const { db, storage, logger } = this.options;
    const log = logger.child({ jobId: job.id, job: job.name, mediaId: job.mediaId, attempt: job.attempts });
    if (job.attempts > this.maxAttempts) {
      await finishJob(db, job.id, { status: "failed", error: jobFailureMessage(job.name, job.media.kind) });
      log.warn("job failed for good: too many attempts");
      return;
    }
    // Taken before the first await: fill() counts busy workers to keep to the concurrency.
    const worker = this.takeWorker();
    const outputDir = storage.temporaryPath();
    let outcome: Parameters<typeof finishJob>[2];
    try {
      await mkdir(outputDir, { recursive: true });
      const outputs = await this.runInWorker(worker, job, outputDir);
      await this.storeOutputs(job.name, job.media, outputDir, outputs);
      outcome = { status: "completed" };
      log.info("job completed");
    } catch (error) {
      const retry = job.attempts < this.maxAttempts;
      log.warn({ err: error }, retry ? "job attempt failed; it will run again" : "job failed");
      outcome = retry ? { status: "new" } : { status: "failed", error: jobFailureMessage(job.name, job.media.kind) };
    }
    await rm(outputDir, { recursive: true, force: true });
    this.busyWorkers.delete(worker);
    if (isUsable(worker) && this.started) this.idleWorkers.push(worker);
    // A stopping server leaves the job to its lease: another server (or the next start) runs it again.
    if (this.started) await finishJob(db, job.id, outcome);
    this.kick();
  }

  private takeWorker(): ChildProcess {
    let worker = this.idleWorkers.pop();
    while (worker && !isUsable(worker)) worker = this.idleWorkers.pop();
    if (!worker) {
      worker = fork(this.options.workerPath, [], { stdio: ["ignore", "inherit", "inherit", "ipc"], serialization: "json" });
      // A worker that dies while a message is on its way fails that send (EPIPE) as an 'error' event: the job's
      // own exit handling deals with it; without a listener it would end the whole server.
      worker.on("error", (error) => this.options.logger.warn({ err: error, pid: worker!.pid }, "media worker error"));
    }
    this.busyWorkers.add(worker);
    return worker;
  }

  private runInWorker(worker: ChildProcess, job: JobRow & { media: MediaRow }, outputDir: string): Promise<string[]> {
    const { db, storage, tools } = this.options;
    const message: WorkerJob = {
      jobId: job.id,
      name: job.name,
      ffmpeg: tools!.ffmpeg,
      input: storage.pathOf(job.media.storageKey),
      outputDir,
      duration: job.media.details.duration ?? 0,
      stillCount: STILL_COUNT,
    };
    return new Promise((resolve, reject) => {
      let progress = 0;
      let written = 0;
      // The heartbeat renews the lease and keeps the output directory fresh: the sweep of stale temporary files
      // judges it by its own mtime, which ffmpeg writing inside it does not change.
      const heartbeat = setInterval(() => {
        void renewLease(db, job.id, progress).catch(() => undefined);
        const now = new Date();
        void utimes(outputDir, now, now).catch(() => undefined);
      }, HEARTBEAT_MS);
      const done = (error: Error | null, outputs?: string[]) => {
        clearInterval(heartbeat);
        worker.off("message", onMessage);
        worker.off("exit", onExit);
        if (error) reject(error);
        else resolve(outputs!);
      };
      const onMessage = (reply: WorkerMessage) => {
        if (reply.type === "ready" || reply.jobId !== job.id) return;
        if (reply.type === "progress") {
          progress = reply.progress;
          if (Date.now() - written >= PROGRESS_WRITE_MS) {
            written = Date.now();
            void renewLease(db, job.id, progress).catch(() => undefined);
          }
        } else if (reply.type === "done") done(null, reply.outputs);
        else done(new Error(reply.error));
      };
      const onExit = (code: number | null, signal: string | null) => done(new Error(`the worker stopped (${signal ?? code})`));
      worker.on("message", onMessage);
      worker.on("exit", onExit);
      worker.send({ type: "job", job: message }, (error) => {
        if (!error) return;
        worker.kill("SIGKILL");
        done(new Error(`the job could not be handed to the worker: ${error.message}`));
      });
    });
  }

  /** Renames the worker's outputs into the store and records them on the media version. */
  private async storeOutputs(name: JobName, media: MediaRow, outputDir: string, outputs: string[]): Promise<void> {
    const { db, storage } = this.options;
    const keys: string[] = [];
    for (const output of outputs) {
      const key = storage.newKey(path.extname(output).slice(1));
      await storage.commit(path.join(outputDir, output), key);
      keys.push(key);
    }
    if (name === "transcode") await updateMediaDetails(db, media.id, { renditionKey: keys[0] });
    // The default thumb is decided in the database: a user may have chosen one while the job ran.
    else await recordStills(db, media.id, keys);
  }
}

/** A worker that can take a job: alive (its 'exit' can come before its channel closes) and connected. */
function isUsable(worker: ChildProcess): boolean {
  return worker.connected && worker.exitCode === null && worker.signalCode === null;
}
