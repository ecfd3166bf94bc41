import { execFileSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPglite, openPostgres, type Db } from "@server/db/client";
import { createTestUser, get, signIn } from "@tests/support/http";
import { upload } from "@tests/support/media-fixtures";
import { holdInput } from "@tests/support/held-input";
import { createTestDatabase, type TestDatabase } from "@tests/support/server";
import {
  BUILD_DIR,
  countMedia,
  exited,
  faststartVideo,
  fieldFor,
  MiB,
  ROOT,
  processEnv,
  startProcess,
  streamUpload,
  uploaded,
  type Content,
} from "@tests/support/media-server";

/*
 * Servers killed with SIGKILL, as real processes (`npm start`) on their own data and media folders.
 * Two things are moved in time instead of waited for: a partial file's mtime (the sweep takes files idle for
 * 10 minutes, STALE_TEMPORARY_MS) and a job's lease (60 s, LEASE_SECONDS). A transcode is held back, not raced:
 * its input is a FIFO the test feeds (tests/support/held-input.ts), so it cannot finish before the server is killed.
 */

const children: ChildProcess[] = [];
const sites: Array<{ database: TestDatabase; mediaDir: string }> = [];

beforeAll(() => {
  expect(existsSync(path.join(BUILD_DIR, "server/index.js")), `no build in ${BUILD_DIR}`).toBe(true);
  // The process imports the build with Node's own resolution: its packages come from the repository's
  // node_modules, so the build must live inside the repository (build/, or VITRINE_BUILD_DIR=build-x).
  expect(BUILD_DIR.startsWith(ROOT + path.sep), `VITRINE_BUILD_DIR must be inside ${ROOT} for a real server process`).toBe(true);
});
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await Promise.all(children.map(exited));
  for (const { database, mediaDir } of sites) {
    await database.drop();
    rmSync(mediaDir, { recursive: true, force: true });
  }
});

/**
 * A database and media folder of its own with a user and a bucket with a video field; the test's database
 * handle is closed, since PGlite is one process's database and the server opens the directory itself.
 */
async function site(mediaWorkers: number) {
  const database = await createTestDatabase();
  const mediaDir = mkdtempSync(path.join(tmpdir(), "vitrine-media-killed-"));
  sites.push({ database, mediaDir });
  const user = await createTestUser(database.db);
  const { fields } = await fieldFor(database.db, "video");
  await database.db.close();
  const env = processEnv(database, mediaDir, { MEDIA_WORKERS: String(mediaWorkers) });
  /** The database, opened again by the test once no server holds it. */
  const reopen = async (): Promise<Db> =>
    (database.db = database.databaseUrl ? openPostgres(database.databaseUrl) : await openPglite(database.dataDir));
  const start = async (extra: Record<string, string> = {}) => {
    const started = await startProcess({ ...env, ...extra });
    children.push(started.child);
    return started;
  };
  const stop = async (child: ChildProcess) => {
    child.kill("SIGTERM");
    await exited(child);
  };
  return { mediaDir, user, fields, reopen, start, stop };
}

/** Every process below `pid` (the server's media workers and their ffmpeg). */
function descendants(pid: number): number[] {
  const table = execFileSync("ps", ["-e", "-o", "pid=,ppid="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const [child, ppid] of table) {
      if (ppid === parent) {
        found.push(child);
        visit(child);
      }
    }
  };
  visit(pid);
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("a server killed mid-upload (a real process, SIGKILL)", () => {
  it("leaves no media row, and its partial file is swept at the next start once it is stale", async () => {
    const { mediaDir, user, fields, reopen, start, stop } = await site(0);
    const tmp = path.join(mediaDir, "tmp");
    // Each server writes into its own folder tmp/server-…/: the files in them, as folder/file.
    const partial = () =>
      existsSync(tmp)
        ? readdirSync(tmp).flatMap((folder) => readdirSync(path.join(tmp, folder)).map((name) => path.join(folder, name)))
        : [];

    const first = await start();
    const cookie = await signIn(first.url, user.email, user.password);
    // 400 MB generated while it is sent; the server dies long before the end.
    const streaming = streamUpload(first.url, "video", cookie, fields, {
      head: faststartVideo(1280, 720, 25, 1),
      size: 400 * MiB,
      filename: "huge.mp4",
    });
    const outcome = streaming.done.then(
      (answer) => ({ answer }),
      (error: unknown) => ({ error }),
    );
    await expect
      .poll(
        () =>
          partial()
            .map((name) => statSync(path.join(tmp, name)).size)
            .reduce((a, b) => a + b, 0),
        { timeout: 20_000, interval: 20 },
      )
      .toBeGreaterThan(16 * MiB);
    first.child.kill("SIGKILL");
    await exited(first.child);
    const ended = await outcome;
    expect("error" in ended, JSON.stringify(ended)).toBe(true);
    expect(streaming.sent()).toBeLessThan(400 * MiB);

    // What the killed server left: one partial upload, and (below) no media row.
    const left = partial();
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(/^server-[0-9a-f-]{36}\/[0-9a-f-]{36}\.part$/);
    const leftPath = path.join(tmp, left[0]!);

    // A restart at once keeps it: another server sharing MEDIA_DIR could be writing it.
    const second = await start();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(partial()).toEqual(left);
    await stop(second.child);

    // The file and its server's folder as they are 11 minutes after the kill: nobody has written to the file, and
    // its server has not marked its folder alive, since.
    const later = new Date(Date.now() - 11 * 60 * 1000);
    utimesSync(leftPath, later, later);
    utimesSync(path.dirname(leftPath), later, later);
    const third = await start();
    await expect.poll(partial, { timeout: 10_000, interval: 50 }).toEqual([]);
    const stored = existsSync(path.join(mediaDir, "files")) ? readdirSync(path.join(mediaDir, "files")) : [];
    expect(stored).toEqual([]);
    await stop(third.child);

    const db = await reopen();
    expect(await countMedia(db)).toBe(0);
    expect((await db.query<{ n: number }>("SELECT count(*)::int AS n FROM jobs")).rows[0]!.n).toBe(0);
  }, 60_000);
});

describe("a server killed mid-transcode (a real process, SIGKILL)", () => {
  it("takes its worker and ffmpeg down with it; once the lease has run out the next start runs the job again and completes it", async () => {
    const { mediaDir, user, fields, reopen, start, stop } = await site(1);
    // Uploaded to a server that runs no jobs, so that its input is held back before any job reads it.
    const uploader = await start({ MEDIA_WORKERS: "0" });
    const cookie = await signIn(uploader.url, user.email, user.password);
    const content = await uploaded(
      await upload(uploader.url, "video", cookie, fields, { data: faststartVideo(1280, 720, 25, 10), name: "long.mp4" }),
    );
    await stop(uploader.child);
    const stored = readdirSync(path.join(mediaDir, "files"));
    expect(stored).toHaveLength(1);
    const held = holdInput(path.join(mediaDir, "files", stored[0]!));
    const latest = async (url: string) =>
      (await (await get(url, `/api/v1/buckets/video/content/${content.contentId}/latest`, cookie)).json()) as Content;

    const first = await start();
    const transcode = async () => (await latest(first.url)).jobs.find((job) => job.name === "transcode");
    try {
      // Mid-transcode: progress reported, and the rest of the input not there yet.
      await held.feedUntil(async () => ((await transcode())?.progress ?? 0) > 0);
      expect(await transcode()).toMatchObject({ status: "processing" });
      const below = descendants(first.child.pid!);
      expect(below.length, "a worker and its ffmpeg").toBeGreaterThanOrEqual(2);
      first.child.kill("SIGKILL");
      await exited(first.child);
      await expect.poll(() => below.filter(alive), { timeout: 5_000, interval: 50 }).toEqual([]);
    } finally {
      held.release();
    }

    // 60 s later, as far as the lease knows.
    let db = await reopen();
    const { rows } = await db.query<{ attempts: number; status: string }>("SELECT attempts, status FROM jobs WHERE name = 'transcode'");
    expect(rows).toEqual([{ attempts: 1, status: "processing" }]);
    await db.query("UPDATE jobs SET lease_until = now() - interval '1 second' WHERE status = 'processing'");
    await db.close();

    const second = await start();
    await expect.poll(async () => (await latest(second.url)).status, { timeout: 60_000, interval: 250 }).toBe("completed");
    const played = await get(second.url, content.url, cookie);
    expect(played.status).toBe(200);
    expect(played.headers.get("content-type")).toBe("video/mp4");
    await played.arrayBuffer();
    await stop(second.child);

    db = await reopen();
    const jobs = await db.query<{ name: string; status: string; attempts: number }>("SELECT name, status, attempts FROM jobs ORDER BY seq");
    expect(jobs.rows).toEqual([
      { name: "transcode", status: "completed", attempts: 2 },
      { name: "still-creation", status: "completed", attempts: 1 },
    ]);
  }, 90_000);
});
