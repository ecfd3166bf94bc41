import { existsSync } from "node:fs";
import { mkdir, rm, utimes } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import { translateMessage } from "@core/messages";
import { jobFailureMessage } from "@core/media/wire";
import type { Db } from "@server/db/client";
import type { FfmpegTools } from "@server/media/ffmpeg";
import type { MediaStorage } from "@server/media/storage";
import {
  claimJob,
  LEASE_SECONDS,
  finishJob,
  handBackJobs,
  holdsJob,
  recordStills,
  renewLease,
  type JobAttempt,
  updateMediaDetails,
  type JobName,
  type JobOutcome,
  type JobRow,
  type MediaRow,
} from "@server/media/store";
import { MAX_ATTEMPTS, retryDelayMs } from "./backoff";
import { isWorkerJobName, type WorkerJob } from "./protocol";
import { WorkerProcess } from "./worker-process";
import { PollingLoop } from "@server/background/polling-loop";

export interface JobRunnerOptions {
  db: Db;
  storage: MediaStorage;
  logger: Logger;
  tools: FfmpegTools | null;
  /** The built worker module (build/server/media-worker.js). */
  workerPath: string;
  /** Where the worker looks ffmpeg up when `tools` names a bare command (config PATH). */
  searchPath: string;
  /** Each ffmpeg run is killed after this long (config VITRINE_JOB_TIME_LIMIT_MS). */
  timeLimitMs: number;
  concurrency?: number;
  pollMs?: number;
  maxAttempts?: number;
  /** How long a claimed job stays this runner's without a renewal (config MEDIA_JOB_LEASE_SECONDS). */
  leaseSeconds?: number;
  /** How often a running job's lease is renewed: a sixth of the lease unless told (tests shorten it). */
  heartbeatMs?: number;
}

/** Stills a still-creation job extracts from a video. */
const STILL_COUNT = 5;
const PROGRESS_WRITE_MS = 1000;

type ClaimedJob = JobRow & { media: MediaRow };

/**
 * Claims jobs from the database and hands each to a forked worker process.
 * The runner owns the database; a failed attempt runs again after its backoff
 * (retryDelayMs), a job whose runner died is claimed again when its lease runs
 * out, and a job fails for good after `maxAttempts`.
 */
export class JobRunner {
  private readonly concurrency: number;
  private readonly maxAttempts: number;
  private readonly heartbeatMs: number;
  private readonly leaseSeconds: number;
  private readonly idleWorkers: WorkerProcess[] = [];
  private readonly busyWorkers = new Set<WorkerProcess>();
  /** The jobs this runner has claimed and not finished: handed back when it stops. */
  private readonly claimed = new Set<string>();
  private stopping = false;
  /** Only a started runner claims jobs: with MEDIA_WORKERS=0 an upload's kick() does nothing. */
  private readonly loop: PollingLoop;

  constructor(private readonly options: JobRunnerOptions) {
    this.concurrency = options.concurrency ?? 1;
    this.maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
    this.leaseSeconds = options.leaseSeconds ?? LEASE_SECONDS;
    this.heartbeatMs = options.heartbeatMs ?? (this.leaseSeconds * 1000) / 6;
    this.loop = new PollingLoop({
      intervalMs: options.pollMs ?? 1000,
      work: () => this.fill(),
      onError: (error) => options.logger.warn({ err: error }, "job runner: claiming jobs failed"),
    });
  }

  get available(): boolean {
    return Boolean(this.options.tools) && existsSync(this.options.workerPath);
  }

  start(): void {
    this.stopping = false;
    this.loop.start();
  }

  /** Looks for work now (after an upload queued some). */
  kick(): void {
    this.loop.kick();
  }

  /** Process ids of the workers running a job now (tests kill one to prove retries). */
  busyWorkerPids(): number[] {
    return [...this.busyWorkers].map((worker) => worker.pid).filter((pid): pid is number => pid !== undefined);
  }

  /** Stops claiming, kills the workers and hands their jobs back to the queue (another server takes them at once). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.loop.stop();
    for (const worker of [...this.idleWorkers, ...this.busyWorkers]) worker.kill();
    this.idleWorkers.length = 0;
    this.busyWorkers.clear();
    const unfinished = [...this.claimed];
    this.claimed.clear();
    await handBackJobs(this.options.db, unfinished);
  }

  private async fill(): Promise<void> {
    while (this.loop.isStarted && this.available && this.busyWorkers.size < this.concurrency) {
      const job = await claimJob(this.options.db, this.leaseSeconds);
      if (!job) return;
      if (this.stopping) {
        await handBackJobs(this.options.db, [job.id]); // claimed while stop() ran
        return;
      }
      this.claimed.add(job.id);
      void this.run(job).catch((error: unknown) =>
        this.options.logger.error({ err: error, jobId: job.id }, "job runner: recording a job failed"),
      );
    }
  }

  private async run(job: ClaimedJob): Promise<void> {
    const { db, storage, logger } = this.options;
    const owner: JobAttempt = { jobId: job.id, attempt: job.attempts };
    const log = logger.child({ jobId: job.id, job: job.name, mediaId: job.mediaId, attempt: job.attempts });
    if (job.attempts > this.maxAttempts) {
      this.claimed.delete(job.id);
      await finishJob(db, owner, { status: "failed", error: translateMessage("en", jobFailureMessage(job.name, job.media.kind)) });
      log.warn("job failed for good: too many attempts");
      return;
    }
    // Taken before the first await: fill() counts busy workers to keep to the concurrency.
    const worker = this.takeWorker();
    const outputDir = storage.temporaryPath();
    const lease = { lost: false };
    let outcome: JobOutcome | "recorded" = "recorded";
    let input: { path: string; release: () => Promise<void> } | undefined;
    try {
      await mkdir(outputDir, { recursive: true });
      // ffmpeg seeks in its input (an MP4's index may sit at its end): a local file, copied from S3 where need be.
      input = await storage.localCopy(job.media.storageKey);
      const outputs = await this.runInWorker(worker, job, owner, { input: input.path, outputDir }, lease);
      if (await this.recordOutputs(job.name, job.media, owner, outputDir, outputs)) log.info("job completed");
      else lease.lost = true;
    } catch (error) {
      outcome =
        job.attempts < this.maxAttempts
          ? { status: "new", retryAfterMs: retryDelayMs(job.attempts) }
          : { status: "failed", error: translateMessage("en", jobFailureMessage(job.name, job.media.kind)) };
      if (!lease.lost)
        log.warn({ err: error, ...outcome }, outcome.status === "new" ? "job attempt failed; it will run again" : "job failed");
    }
    await rm(outputDir, { recursive: true, force: true });
    await input?.release();
    this.busyWorkers.delete(worker);
    if (worker.usable && this.loop.isStarted) this.idleWorkers.push(worker);
    if (lease.lost) log.warn("job attempt lost its lease to another runner: its ffmpeg stopped, its outputs discarded");
    // A stopping server has handed the job back (stop()); an attempt that lost its lease has nothing to record.
    if (this.claimed.delete(job.id) && !lease.lost && outcome !== "recorded") await finishJob(db, owner, outcome);
    this.kick();
  }

  private takeWorker(): WorkerProcess {
    let worker = this.idleWorkers.pop();
    while (worker && !worker.usable) worker = this.idleWorkers.pop();
    worker ??= new WorkerProcess(this.options.workerPath, { PATH: this.options.searchPath }, this.options.logger);
    this.busyWorkers.add(worker);
    return worker;
  }

  private async runInWorker(
    worker: WorkerProcess,
    job: ClaimedJob,
    owner: JobAttempt,
    { input, outputDir }: { input: string; outputDir: string },
    lease: { lost: boolean },
  ): Promise<string[]> {
    const { db, tools, timeLimitMs } = this.options;
    // A job of a name this version does not know (a newer server may have queued it) is no worker's to run.
    const name: string = job.name;
    if (!isWorkerJobName(name)) throw new Error(`no worker runs jobs named ${name}`);
    if (!tools) throw new Error("no ffmpeg to run jobs with");
    const message: WorkerJob = {
      jobId: job.id,
      name,
      ffmpeg: tools.ffmpeg,
      input,
      outputDir,
      duration: job.media.details.duration ?? 0,
      stillCount: STILL_COUNT,
      timeLimitMs,
    };
    let progress = 0;
    let written = 0;
    // Another runner took the job (this one paused past its lease): its ffmpeg is stopped with the worker.
    const renew = () =>
      void renewLease(db, owner, progress, this.leaseSeconds).then(
        (held) => {
          if (held || lease.lost) return;
          lease.lost = true;
          worker.kill();
        },
        () => undefined,
      );
    // The heartbeat renews the lease and keeps the output directory fresh: the sweep of stale temporary files
    // judges it by its own mtime, which ffmpeg writing inside it does not change.
    const heartbeat = setInterval(() => {
      renew();
      const now = new Date();
      void utimes(outputDir, now, now).catch(() => undefined);
    }, this.heartbeatMs);
    try {
      return await worker.run(message, (reported) => {
        progress = reported;
        if (Date.now() - written < PROGRESS_WRITE_MS) return;
        written = Date.now();
        renew();
      });
    } finally {
      clearInterval(heartbeat);
    }
  }

  /**
   * Puts the worker's outputs into the store, then records them on the media version and the job as completed,
   * in one transaction that holds the job: false (the files removed again) when the job is no longer this attempt's.
   */
  private async recordOutputs(name: JobName, media: MediaRow, owner: JobAttempt, outputDir: string, outputs: string[]): Promise<boolean> {
    const { db, storage } = this.options;
    const keys: string[] = [];
    for (const output of outputs) {
      const key = storage.newKey(path.extname(output).slice(1));
      await storage.commit(path.join(outputDir, output), key);
      keys.push(key);
    }
    const recorded = await db.transaction(async (tx) => {
      if (!(await holdsJob(tx, owner))) return false;
      if (name === "transcode") await updateMediaDetails(tx, media.id, { renditionKey: keys[0] });
      // The default thumb is decided in the database: a user may have chosen one while the job ran.
      else await recordStills(tx, media.id, keys);
      await finishJob(tx, owner, { status: "completed" });
      return true;
    });
    if (!recorded) await Promise.all(keys.map((key) => storage.removeKey(key)));
    return recorded;
  }
}
