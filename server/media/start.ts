import { existsSync } from "node:fs";
import path from "node:path";
import type { Logger } from "pino";
import type { MediaServices } from "@server/services";
import type { Config } from "@server/config";
import type { Db } from "@server/db/client";
import { JobRunner } from "@server/jobs/runner";
import type { FfmpegTools } from "./ffmpeg";
import { ORPHAN_MIN_AGE_MS, sweepOrphanedFiles } from "./orphans";
import { sweepPendingUploads } from "./pending";
import { removeScheduledMedia } from "./removals";
import { S3Store } from "./s3-store";
import { ALIVE_MARK_MS, MediaStorage } from "./storage";

/** Temporary files idle this long were left by a killed upload or job. */
export const STALE_TEMPORARY_MS = 10 * 60 * 1000;

/** Where the media files live: MEDIA_DIR, else DATA_DIR/media. */
export const mediaDirOf = (config: Pick<Config, "MEDIA_DIR" | "DATA_DIR">) =>
  path.resolve(config.MEDIA_DIR ?? path.join(config.DATA_DIR, "media"));

/** The media storage of the configuration: MEDIA_DIR's folders, or its temporary folder and the S3 bucket. */
export function mediaStorageOf(config: Config): MediaStorage {
  const root = mediaDirOf(config);
  if (config.MEDIA_STORAGE !== "s3" || !config.S3_BUCKET) return new MediaStorage(root);
  return new MediaStorage(
    root,
    new S3Store({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      prefix: config.S3_PREFIX,
    }),
  );
}

/**
 * The media store, the ffmpeg found on this machine (findFfmpeg, looked up
 * while the database opens) and the job runner with its worker processes;
 * logs which ffmpeg it uses, or that video is off. The runner and the sweeps
 * begin with startBackgroundWork().
 */
export function startMedia(
  config: Config,
  db: Db,
  logger: Logger,
  workerPath: string,
  found: { tools: FfmpegTools | null; rejected: string[] },
): MediaServices & { startBackgroundWork(): void; stop(): Promise<void> } {
  const ffmpeg = found.tools;
  const storage = mediaStorageOf(config);
  if (found.rejected.length) logger.warn({ rejected: found.rejected }, "FFMPEG_PATH/FFPROBE_PATH do not name working binaries: ignored");
  if (ffmpeg)
    logger.info(
      { ffmpeg: ffmpeg.ffmpeg, ffprobe: ffmpeg.ffprobe, source: ffmpeg.source, version: ffmpeg.version },
      "video processing with ffmpeg",
    );
  else
    logger.warn(
      "video processing is unavailable: no ffmpeg/ffprobe found (set FFMPEG_PATH and FFPROBE_PATH, or install Debian's ffmpeg); images and files still work",
    );
  if (!existsSync(workerPath)) logger.warn({ workerPath }, "the media worker is not built: run npm run build to process videos");
  const jobs = new JobRunner({
    db,
    storage,
    logger,
    tools: ffmpeg,
    workerPath,
    searchPath: config.PATH,
    timeLimitMs: config.VITRINE_JOB_TIME_LIMIT_MS,
    concurrency: Math.max(1, config.MEDIA_WORKERS),
    leaseSeconds: config.MEDIA_JOB_LEASE_SECONDS,
  });
  const sweepStale = () => {
    void storage.sweep(STALE_TEMPORARY_MS).catch((error: unknown) => logger.warn({ err: error }, "sweeping temporary media files failed"));
    void sweepPendingUploads(db, storage).catch((error: unknown) => logger.warn({ err: error }, "sweeping pending uploads failed"));
    // Files of deleted buckets whose removal did not finish right after the delete (server/media/removals.ts).
    void removeScheduledMedia(db, storage, logger).catch((error: unknown) =>
      logger.warn({ err: error }, "removing media of deleted buckets failed"),
    );
  };
  const sweepOrphans = () =>
    void sweepOrphanedFiles(db, storage)
      .then((removed) => removed && logger.info({ removed }, "removed media files no media version names"))
      .catch((error: unknown) => logger.warn({ err: error }, "sweeping unnamed media files failed"));
  let sweeper: NodeJS.Timeout | undefined;
  let orphanSweeper: NodeJS.Timeout | undefined;
  let aliveMarker: NodeJS.Timeout | undefined;
  return {
    storage,
    jobs,
    ffmpeg,
    /** The runner's first look for jobs (those a previous run left too) and the first sweep; both go on by timer. */
    startBackgroundWork() {
      if (sweeper) return;
      if (config.MEDIA_WORKERS > 0) jobs.start();
      sweepStale();
      sweeper = setInterval(sweepStale, STALE_TEMPORARY_MS);
      sweeper.unref();
      // Other servers sharing MEDIA_DIR leave this server's temporary folder alone while it is marked alive.
      aliveMarker = setInterval(() => void storage.markAlive().catch(() => undefined), ALIVE_MARK_MS);
      aliveMarker.unref();
      // Lists the whole store: hourly is often enough for what only a crash or a lost job leaves.
      sweepOrphans();
      orphanSweeper = setInterval(sweepOrphans, ORPHAN_MIN_AGE_MS);
      orphanSweeper.unref();
    },
    async stop() {
      clearInterval(sweeper);
      clearInterval(orphanSweeper);
      clearInterval(aliveMarker);
      await jobs.stop();
    },
  };
}
