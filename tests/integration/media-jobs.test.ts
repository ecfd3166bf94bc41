import { fork } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@server/db/client";
import { retryDelayMs } from "@server/jobs/backoff";
import { JobRunner, type JobRunnerOptions } from "@server/jobs/runner";
import { claimJob, finishJob, handBackJobs, insertMedia } from "@server/media/store";
import { createTestBucket } from "@tests/support/fixtures";
import { holdInput, processesWithArgument } from "@tests/support/held-input";
import { createTestUser, get } from "@tests/support/http";
import { upload, videoOf } from "@tests/support/media-fixtures";
import { createTestDatabase, type TestServer } from "@tests/support/server";
import {
  BUILD_DIR,
  STALE_TEMPORARY_MS,
  type Content,
  faststartVideo,
  fieldFor,
  fixtureDir,
  json,
  startMediaServer,
  uploaded,
} from "@tests/support/media-server";

/*
 * The job runner. Jobs keep their queue order, MEDIA_WORKERS=0 runs none, the runner keeps to its
 * concurrency, failed jobs end with the spec's messages after their attempts while the queue keeps moving, and
 * the stale-file sweep leaves a running job's output alone.
 */

/** One server for the tests that need no job to run: MEDIA_WORKERS=0. */
let server: TestServer;
let cookie: string;
beforeAll(async () => {
  ({ server, cookie } = await startMediaServer());
});
afterAll(() => server.stop());

/**
 * A server of the test's own, for a test that runs a runner of its own on it: a runner takes any due job, and
 * the jobs of other tests' uploads must stay theirs.
 */
async function withOwnServer(test: (own: { server: TestServer; cookie: string }) => Promise<void>): Promise<void> {
  const own = await startMediaServer();
  try {
    await test(own);
  } finally {
    await own.server.stop();
  }
}

/** A runner beside the server's (which runs none: MEDIA_WORKERS=0), on its database. */
const runnerOptions = (target: TestServer, workerPath = path.join(BUILD_DIR, "server/media-worker.js")): JobRunnerOptions => ({
  db: target.db,
  storage: target.media.storage,
  logger: pino({ level: "silent" }),
  tools: target.media.ffmpeg,
  workerPath,
  searchPath: target.config.PATH,
  timeLimitMs: target.config.VITRINE_JOB_TIME_LIMIT_MS,
  pollMs: 50,
});

/**
 * A 10-second video uploaded with its transcode job alone (a still-creation job would read the held input too), and
 * its input held: ffmpeg reads only what the test feeds it.
 */
async function heldTranscode(server: TestServer, cookie: string, name: string) {
  const { fields } = await fieldFor(server.db, "video");
  const content = await uploaded(await upload(server.url, "video", cookie, fields, { data: faststartVideo(1280, 720, 25, 10), name }));
  await server.db.query("DELETE FROM jobs WHERE media_id = $1 AND name = 'still-creation'", [content._id]);
  const key = (await server.db.query<{ key: string }>("SELECT storage_key AS key FROM media WHERE id = $1", [content._id])).rows[0]!.key;
  const input = server.media.storage.pathOf(key);
  return { content, input, held: holdInput(input) };
}

/** Time passes for the backoff of these media's failed jobs: they are due now. */
const backoffPassed = (db: Db, mediaIds: string[]) =>
  db.query("UPDATE jobs SET run_after = now() WHERE status = 'new' AND run_after > now() AND media_id = ANY($1::uuid[])", [mediaIds]);

describe("job order", () => {
  // created_at can tie (PGlite's clock moves in milliseconds; a video's two jobs are inserted together): jobs keep
  // the order they were queued in through their sequence (migration 009), so the API lists them, and the media's
  // `error` names the first failed one, the same way every time.
  it("a video's jobs have a defined order: transcode, then still-creation", async () => {
    const { fields } = await fieldFor(server.db, "video");
    const contents: Content[] = [];
    // Four videos (each generated, then probed on upload: about 3 s apiece with both cores busy) show the order.
    for (let i = 0; i < 4; i++) {
      contents.push(
        await uploaded(
          await upload(server.url, "video", cookie, fields, {
            data: videoOf({ width: 1280, height: 720, fps: 25, seconds: 1 }),
            name: `v${i}.mp4`,
          }),
        ),
      );
    }
    for (const content of contents) expect(content.jobs.map((job) => job.name)).toEqual(["transcode", "still-creation"]);
    const { rows } = await server.db.query<{ ordered: boolean }>(
      `SELECT max(seq) FILTER (WHERE name = 'transcode') < max(seq) FILTER (WHERE name = 'still-creation') AS ordered
       FROM jobs WHERE media_id = ANY($1::uuid[]) GROUP BY media_id`,
      [contents.map((content) => content._id)],
    );
    expect(rows.map((row) => row.ordered)).toEqual(Array(4).fill(true));
  }, 60_000);
});

describe("the job runner: MEDIA_WORKERS=0, failures after the attempts, the sweep beside running jobs", () => {
  // One server, its tests in order: the first uploads with the runner as MEDIA_WORKERS=0 leaves it, the second
  // stops it to set failures up, then starts it; the third needs it running.
  let jobServer: TestServer;
  let jobCookie: string;

  beforeAll(async () => {
    ({ server: jobServer, cookie: jobCookie } = await startMediaServer());
  });
  afterAll(() => jobServer.stop());

  const latest = async (contentId: string) =>
    json(await get(jobServer.url, `/api/v1/buckets/video/content/${contentId}/latest`, jobCookie));
  const sendVideo = async (
    fields: Record<string, string>,
    name: string,
    video: Parameters<typeof videoOf>[0] = { width: 1280, height: 720, fps: 25, seconds: 1 },
  ) => uploaded(await upload(jobServer.url, "video", jobCookie, fields, { data: videoOf(video), name }));
  const jobRows = async (mediaId: string) =>
    (
      await jobServer.db.query<{ name: string; status: string; attempts: number; error: string | null }>(
        "SELECT name, status, attempts, error FROM jobs WHERE media_id = $1 ORDER BY name",
        [mediaId],
      )
    ).rows;

  // docs/configuration.md: "`0` runs none: uploads are accepted and their jobs wait for a server that has
  // workers" (the upload's kick() must not start a runner that was never started).
  it("MEDIA_WORKERS=0 leaves an uploaded video's jobs waiting, unclaimed", async () => {
    const { fields } = await fieldFor(jobServer.db, "video");
    const content = await sendVideo(fields, "waiting.mp4");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(jobServer.media.jobs.busyWorkerPids()).toEqual([]);
    expect(await jobRows(content._id)).toEqual([
      { name: "still-creation", status: "new", attempts: 0, error: null },
      { name: "transcode", status: "new", attempts: 0, error: null },
    ]);
  });

  it("'Error converting video' and 'Error getting stills from video' after 3 attempts, 'An unknown error occured' for another job; other videos still complete", async () => {
    await jobServer.media.jobs.stop();
    const { fields } = await fieldFor(jobServer.db, "video");
    const damaged = await sendVideo(fields, "damaged.mp4");
    const abandoned = await sendVideo(fields, "abandoned.mp4");
    const healthy = await sendVideo(fields, "healthy.mp4");

    // The stored original of `damaged` becomes unreadable after it was accepted: every ffmpeg run fails.
    const key = (await jobServer.db.query<{ key: string }>("SELECT storage_key AS key FROM media WHERE id = $1", [damaged._id])).rows[0]!
      .key;
    writeFileSync(jobServer.media.storage.pathOf(key), Buffer.alloc(4096, 0x42));
    // `abandoned`: its transcode was taken three times by servers that died (attempts used up, lease expired);
    // a job of a name this version does not know waits beside it, as a newer server might have queued.
    await jobServer.db.query(
      "UPDATE jobs SET status = 'processing', attempts = 3, lease_until = now() - interval '1 minute' WHERE media_id = $1 AND name = 'transcode'",
      [abandoned._id],
    );
    await jobServer.db.query(
      "INSERT INTO jobs (media_id, name, status, attempts, lease_until) VALUES ($1, 'waveform', 'processing', 3, now() - interval '1 minute')",
      [abandoned._id],
    );

    jobServer.media.jobs.start();
    // Until every job has ended: the media shows 'error' as soon as one of its jobs failed for good.
    // Each failed attempt waits for its backoff (its own test below): here time passes at every look.
    const ids = [damaged._id, abandoned._id, healthy._id];
    const open = async () => {
      await backoffPassed(jobServer.db, ids);
      return (
        await jobServer.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM jobs WHERE media_id = ANY($1::uuid[]) AND status IN ('new', 'processing')",
          [ids],
        )
      ).rows[0]!.n;
    };
    await expect.poll(open, { timeout: 60_000, interval: 200 }).toBe(0);

    // Both jobs failed: the media names the first of them in queue order.
    expect(await latest(damaged.contentId)).toMatchObject({ status: "error", error: "Error converting video" });
    expect(await jobRows(damaged._id)).toEqual([
      { name: "still-creation", status: "failed", attempts: 3, error: "Error getting stills from video" },
      { name: "transcode", status: "failed", attempts: 3, error: "Error converting video" },
    ]);
    expect(await latest(abandoned.contentId)).toMatchObject({ status: "error", error: "Error converting video" });
    expect(await jobRows(abandoned._id)).toEqual([
      { name: "still-creation", status: "completed", attempts: 1, error: null },
      { name: "transcode", status: "failed", attempts: 4, error: "Error converting video" },
      { name: "waveform", status: "failed", attempts: 4, error: "An unknown error occured" },
    ]);
    const done = await latest(healthy.contentId);
    expect(done.status).toBe("completed");
    expect(done.error).toBeUndefined();
    expect(readdirSync(jobServer.media.storage.tmpDir)).toEqual([]);
  }, 60_000);

  // JobRunner.fill claims while fewer workers than MEDIA_WORKERS are busy: a claimed job must count as busy at
  // once (it once awaited mkdir first, and every waiting job got its own worker and ffmpeg).
  it("runs at most MEDIA_WORKERS jobs at a time (here 1)", async () => {
    await jobServer.media.jobs.stop();
    const { fields } = await fieldFor(jobServer.db, "video", { minWidth: 320, minHeight: 240 });
    const small = { width: 320, height: 240, fps: 25, seconds: 1 };
    const videos = [await sendVideo(fields, "one.mp4", small), await sendVideo(fields, "two.mp4", small)];
    let busiest = 0;
    let mostProcessing = 0;
    jobServer.media.jobs.start();
    await expect
      .poll(
        async () => {
          busiest = Math.max(busiest, jobServer.media.jobs.busyWorkerPids().length);
          const { rows } = await jobServer.db.query<{ n: number }>("SELECT count(*)::int AS n FROM jobs WHERE status = 'processing'");
          mostProcessing = Math.max(mostProcessing, rows[0]!.n);
          return (await Promise.all(videos.map((video) => latest(video.contentId)))).map((content) => content.status);
        },
        { timeout: 30_000, interval: 10 },
      )
      .toEqual(["completed", "completed"]);
    expect({ busiest, mostProcessing }).toEqual({ busiest: 1, mostProcessing: 1 });
  }, 60_000);

  // A job's temporary output directory keeps its own mtime while ffmpeg writes into rendition.mp4 inside it: the
  // sweep must judge it by what is written in it, or a transcode over 10 minutes loses its output. The test puts
  // a running job 11 minutes in by dating its directory back, then runs the sweep the timer runs.
  it("the sweep never deletes the output directory of a job that is still running", async () => {
    const { fields } = await fieldFor(jobServer.db, "video");
    const content = await sendVideo(fields, "long.mp4", { width: 1280, height: 720, fps: 25, seconds: 8, codec: "mpeg4" });
    const tmpDir = jobServer.media.storage.tmpDir;
    const outputDir = () =>
      readdirSync(tmpDir)
        .map((name) => path.join(tmpDir, name))
        .find((entry) => existsSync(path.join(entry, "rendition.mp4")));
    await expect.poll(outputDir, { timeout: 20_000, interval: 10 }).toBeTruthy();
    const running = outputDir()!;
    const elevenMinutesAgo = new Date(Date.now() - 11 * 60 * 1000);
    utimesSync(running, elevenMinutesAgo, elevenMinutesAgo);
    // The job is alive: a worker runs it, and the file ffmpeg is writing is fresh.
    expect(jobServer.media.jobs.busyWorkerPids().length).toBeGreaterThan(0);
    expect(Date.now() - statSync(path.join(running, "rendition.mp4")).mtimeMs).toBeLessThan(60_000);
    await jobServer.media.storage.sweep(STALE_TEMPORARY_MS);
    const survived = existsSync(running);
    // Today's outcome, a failed attempt and a full retry, only costs time: end it.
    if (!survived) await jobServer.media.jobs.stop();
    expect(survived).toBe(true);
    await expect.poll(async () => (await latest(content.contentId)).status, { timeout: 60_000, interval: 250 }).toBe("completed");
    expect((await jobRows(content._id)).find((job) => job.name === "transcode")?.attempts).toBe(1);
  }, 60_000);
});

describe("workers that die at once", () => {
  it(
    "fail their jobs after the attempts with the spec's message, and never take the server down",
    () =>
      withOwnServer(async ({ server, cookie }) => {
        // A worker that is gone before (or while) its job is sent: the send can fail with EPIPE.
        const dying = path.join(server.media.storage.tmpDir, "..", "dying-worker.cjs");
        writeFileSync(dying, "process.exit(0);\n");
        const { fields } = await fieldFor(server.db, "video");
        const content = await uploaded(
          await upload(server.url, "video", cookie, fields, {
            data: videoOf({ width: 1280, height: 720, fps: 25, seconds: 1 }),
            name: "doomed.mp4",
          }),
        );
        const runner = new JobRunner(runnerOptions(server, dying));
        const jobs = async () => {
          await backoffPassed(server.db, [content._id]);
          return (
            await server.db.query<{ name: string; status: string; attempts: number }>(
              "SELECT name, status, attempts FROM jobs WHERE media_id = $1 ORDER BY seq",
              [content._id],
            )
          ).rows;
        };
        runner.start();
        try {
          await expect.poll(jobs, { timeout: 30_000, interval: 100 }).toEqual([
            { name: "transcode", status: "failed", attempts: 3 },
            { name: "still-creation", status: "failed", attempts: 3 },
          ]);
        } finally {
          await runner.stop();
        }
        expect(await json(await get(server.url, `/api/v1/buckets/video/content/${content.contentId}/latest`, cookie))).toMatchObject({
          status: "error",
          error: "Error converting video",
        });
        expect((await get(server.url, "/healthz")).status).toBe(200);
      }),
    40_000,
  );
});

describe("a worker killed while its ffmpeg runs (real processes, SIGKILL)", () => {
  // ffmpeg ignores SIGPIPE: a worker's death used to leave it transcoding on beside the retried job, into a
  // directory already deleted. The worker starts it as a process group of its own and the runner kills the group.
  it(
    "takes that ffmpeg down with it; the job runs again after its backoff and completes",
    () =>
      withOwnServer(async ({ server, cookie }) => {
        const { content, input, held } = await heldTranscode(server, cookie, "held.mp4");
        const transcode = async () =>
          (
            await server.db.query<{ status: string; attempts: number; progress: number; backoffMs: number | null }>(
              `SELECT status, attempts, progress, CASE WHEN status = 'new' THEN round(extract(epoch FROM run_after - updated_at) * 1000)::int END AS "backoffMs"
           FROM jobs WHERE media_id = $1`,
              [content._id],
            )
          ).rows[0]!;
        const runner = new JobRunner(runnerOptions(server));
        runner.start();
        try {
          // The worker reports ffmpeg's process group before any progress: once progress is recorded, the runner knows it.
          await held.feedUntil(async () => (await transcode()).progress > 0);
          expect(processesWithArgument(input), "the job's ffmpeg, waiting for the rest of its input").toHaveLength(1);
          const [worker] = runner.busyWorkerPids();
          process.kill(worker!, "SIGKILL");
          await expect.poll(() => processesWithArgument(input), { timeout: 5_000, interval: 20 }).toEqual([]);

          await expect
            .poll(transcode, { timeout: 5_000, interval: 20 })
            .toMatchObject({ status: "new", attempts: 1, backoffMs: retryDelayMs(1) });
          await runner.stop();
          held.release();
          await backoffPassed(server.db, [content._id]);
          runner.start();
          await expect.poll(transcode, { timeout: 60_000, interval: 100 }).toMatchObject({ status: "completed", attempts: 2 });
          expect(await json(await get(server.url, `/api/v1/buckets/video/content/${content.contentId}/latest`, cookie))).toMatchObject({
            status: "completed",
          });
        } finally {
          await runner.stop();
          held.release();
        }
      }),
    90_000,
  );
});

describe("a runner that stops while its job runs (a server stopping, docs/operations.md)", () => {
  it(
    "hands the job back to the queue at once, its attempt not counted, takes its ffmpeg down, and another runner completes it",
    () =>
      withOwnServer(async ({ server, cookie }) => {
        const { content, input, held } = await heldTranscode(server, cookie, "handed-back.mp4");
        const transcode = async () =>
          (
            await server.db.query<{ status: string; attempts: number; due: boolean; leased: boolean }>(
              `SELECT status, attempts, run_after <= now() AS due, lease_until IS NOT NULL AS leased FROM jobs WHERE media_id = $1`,
              [content._id],
            )
          ).rows[0]!;
        const stopping = new JobRunner(runnerOptions(server));
        const next = new JobRunner(runnerOptions(server));
        stopping.start();
        try {
          await held.feedUntil(
            async () =>
              (await server.db.query<{ p: number }>("SELECT progress AS p FROM jobs WHERE media_id = $1", [content._id])).rows[0]!.p > 0,
          );
          await stopping.stop();
          // Not left to its lease (a minute): due now, as if never tried.
          expect(await transcode()).toEqual({ status: "new", attempts: 0, due: true, leased: false });
          await expect.poll(() => processesWithArgument(input), { timeout: 5_000, interval: 20 }).toEqual([]);
          held.release();
          next.start();
          await expect.poll(transcode, { timeout: 60_000, interval: 100 }).toMatchObject({ status: "completed", attempts: 1 });
        } finally {
          await stopping.stop();
          await next.stop();
          held.release();
        }
      }),
    90_000,
  );
});

describe("an attempt that lost its lease (its server paused past it, docs/operations.md)", () => {
  it(
    "stops its ffmpeg at its next renewal, records nothing and leaves no file; the attempt that has the job completes it",
    () =>
      withOwnServer(async ({ server, cookie }) => {
        const { content, input, held } = await heldTranscode(server, cookie, "fenced.mp4");
        const stored = () => readdirSync(server.media.storage.filesDir).sort();
        const filesBefore = stored();
        const job = async () =>
          (
            await server.db.query<{ id: string; status: string; attempts: number; progress: number; rendition: string | null }>(
              `SELECT j.id, j.status, j.attempts, j.progress, m.details->>'renditionKey' AS rendition
               FROM jobs j JOIN media m ON m.id = j.media_id WHERE j.media_id = $1`,
              [content._id],
            )
          ).rows[0]!;
        const paused = new JobRunner({ ...runnerOptions(server), heartbeatMs: 100 });
        const taking = new JobRunner(runnerOptions(server));
        paused.start();
        try {
          await held.feedUntil(async () => (await job()).progress > 0);
          // Another server finds the lease run out and claims the job: its attempt (2) now owns it.
          await server.db.query("UPDATE jobs SET lease_until = now() - interval '1 second' WHERE media_id = $1", [content._id]);
          const other = await claimJob(server.db);
          expect(other).toMatchObject({ mediaId: content._id, attempts: 2 });
          await expect.poll(() => processesWithArgument(input), { timeout: 10_000, interval: 20 }).toEqual([]);
          await expect.poll(() => paused.busyWorkerPids(), { timeout: 10_000, interval: 20 }).toEqual([]);
          expect(await job()).toMatchObject({ status: "processing", attempts: 2, rendition: null });
          expect(stored()).toEqual(filesBefore);

          // That other server stops and hands the job back; a runner completes it, with one rendition.
          await handBackJobs(server.db, [other!.id]);
          held.release();
          taking.start();
          await expect.poll(job, { timeout: 60_000, interval: 100 }).toMatchObject({ status: "completed", attempts: 2 });
          const { rendition } = await job();
          expect(stored()).toEqual([...filesBefore, rendition].sort());
        } finally {
          await paused.stop();
          await taking.stop();
          held.release();
        }
      }),
    90_000,
  );
});

describe("retries after the backoff", () => {
  it("a failed attempt is claimed again only once its backoff has passed; a job whose lease ran out at once", async () => {
    // A database of its own: claimJob takes any due job, and this test must see only its own.
    const database = await createTestDatabase();
    try {
      const { db } = database;
      const user = await createTestUser(db);
      const bucket = await createTestBucket(db);
      const media = await insertMedia(
        db,
        {
          kind: "video",
          bucketId: bucket.id,
          storageKey: "00000000-0000-4000-8000-000000000000.mp4",
          originalFilename: "v.mp4",
          mimetype: "video/mp4",
          size: 4096,
          createdBy: user.id,
        },
        ["transcode"],
      );
      const moveTime = (seconds: number) =>
        db.query("UPDATE jobs SET run_after = run_after - make_interval(secs => $2) WHERE media_id = $1", [media.id, seconds]);

      const first = await claimJob(db);
      expect(first).toMatchObject({ mediaId: media.id, attempts: 1, status: "processing" });
      await finishJob(db, { jobId: first!.id, attempt: first!.attempts }, { status: "new", retryAfterMs: retryDelayMs(1) });
      expect(await claimJob(db)).toBeNull();
      await moveTime(retryDelayMs(1) / 1000 - 1);
      expect(await claimJob(db), "a second before its time").toBeNull();
      await moveTime(1);
      const second = await claimJob(db);
      expect(second).toMatchObject({ id: first!.id, attempts: 2, status: "processing" });

      // Its runner dies: the lease, not the backoff, decides when it runs again.
      expect(await claimJob(db)).toBeNull();
      await db.query("UPDATE jobs SET lease_until = now() - interval '1 second' WHERE id = $1", [second!.id]);
      expect(await claimJob(db)).toMatchObject({ id: first!.id, attempts: 3 });
    } finally {
      await database.drop();
    }
  });
});

describe("the worker protocol between real processes: a malformed message is logged and ignored", () => {
  it("the runner ignores a worker's malformed messages (one naming process group 0, one an output outside its directory) and takes its valid answer", () =>
    withOwnServer(async ({ server, cookie }) => {
      const worker = path.join(server.media.storage.tmpDir, "..", "garbling-worker.cjs");
      writeFileSync(
        worker,
        `const { writeFileSync } = require("node:fs");
         const path = require("node:path");
         process.on("message", ({ job }) => {
           process.send("garbage");
           process.send({ type: "progress", jobId: job.jobId, progress: "lots" });
           process.send({ type: "started", jobId: job.jobId, processGroup: 0 });
           process.send({ type: "done", jobId: job.jobId, outputs: ["../escaped.mp4"] });
           writeFileSync(path.join(job.outputDir, "rendition.mp4"), "made by the test's worker");
           process.send({ type: "done", jobId: job.jobId, outputs: ["rendition.mp4"] });
         });
         process.send({ type: "ready" });\n`,
      );
      const { fields } = await fieldFor(server.db, "video");
      const content = await uploaded(
        await upload(server.url, "video", cookie, fields, {
          data: videoOf({ width: 1280, height: 720, fps: 25, seconds: 1 }),
          name: "garbled.mp4",
        }),
      );
      const warnings: Array<{ msg: string; problem?: string }> = [];
      const logger = pino(
        { level: "warn" },
        { write: (line: string) => void warnings.push(JSON.parse(line) as { msg: string; problem?: string }) },
      );
      const runner = new JobRunner({ ...runnerOptions(server, worker), logger });
      runner.start();
      try {
        await expect
          .poll(
            async () =>
              (await server.db.query("SELECT name, status, attempts FROM jobs WHERE media_id = $1 ORDER BY seq", [content._id])).rows,
            { timeout: 20_000, interval: 50 },
          )
          .toEqual([
            { name: "transcode", status: "completed", attempts: 1 },
            { name: "still-creation", status: "completed", attempts: 1 },
          ]);
      } finally {
        await runner.stop();
      }
      const ignored = warnings.filter((warning) => warning.msg === "media worker: a malformed message was ignored");
      expect(ignored).toHaveLength(8);
      expect(ignored.map((warning) => warning.problem).join("\n")).toMatch(/processGroup[\s\S]*must be a plain file name/);
      expect(existsSync(path.join(server.media.storage.tmpDir, "escaped.mp4"))).toBe(false);
      expect((await get(server.url, "/healthz")).status).toBe(200);
    }));

  it("the worker ignores a malformed job and runs the next well-formed one", async () => {
    const outputDir = mkdtempSync(path.join(fixtureDir, "stills-"));
    const input = path.join(outputDir, "..", "protocol-input.mp4");
    writeFileSync(input, videoOf({ width: 320, height: 240, fps: 25, seconds: 1 }));
    const child = fork(path.join(BUILD_DIR, "server/media-worker.js"), [], {
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      serialization: "json",
      env: { PATH: server.config.PATH },
    });
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    try {
      const job = {
        jobId: "j1",
        name: "still-creation",
        ffmpeg: server.media.ffmpeg!.ffmpeg,
        input,
        outputDir,
        duration: 1,
        stillCount: 2,
        timeLimitMs: 60_000,
      };
      const answer = await new Promise<unknown>((resolve) => {
        child.on("message", (message: { type?: string }) => {
          if (message.type !== "ready") {
            if (message.type === "done" || message.type === "failed") resolve(message);
            return;
          }
          child.send("garbage");
          child.send({ type: "job", job: { ...job, jobId: "j0", stillCount: "five" } });
          child.send({ type: "job", job });
        });
      });
      expect(answer).toEqual({ type: "done", jobId: "j1", outputs: ["still-1.jpg", "still-2.jpg"] });
      expect(stderr.match(/a malformed message was ignored/g)).toHaveLength(2);
      expect(stderr).toContain("stillCount");
    } finally {
      child.kill("SIGKILL");
    }
  });
});
