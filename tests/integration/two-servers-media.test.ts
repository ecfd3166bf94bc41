import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { S3Store } from "@server/media/s3-store";
import { createTestBucket, mediaRulesBucket } from "@tests/support/fixtures";
import { createTestUser, sameOrigin, signIn } from "@tests/support/http";
import { upload, videoOf } from "@tests/support/media-fixtures";
import { exited, startProcess } from "@tests/support/media-server";
import { s3StoreOn, startS3Server, type TestS3Server } from "@tests/support/s3-server";
import { tempFolders } from "@tests/support/temp-folders";
import { createTestDatabase, TEST_SESSION_SECRET, type TestDatabase } from "@tests/support/server";
import { startReceiver, type Receiver } from "@tests/support/webhook-receiver";

/*
 * Two servers (`npm start`, real processes) on one PostgreSQL database and one S3 media store (s3rver), both running
 * media workers and webhook dispatchers, with a 4 s job lease: a video's jobs run once, a webhook goes out once, a
 * server paused past its lease (SIGSTOP of its process tree, as a VM pause) finds its job taken, stops its ffmpeg
 * and leaves no file behind, and a server killed with a job in hand has the other finish it once the lease ran out.
 * PostgreSQL only (PGlite is one process's).
 */

const onPostgres = process.env.VITRINE_TEST_DB === "postgres" && Boolean(process.env.TEST_DATABASE_URL);
const LEASE_SECONDS = 4;
const SMALL_VIDEO = { minWidth: 320, minHeight: 240 };

type Running = Awaited<ReturnType<typeof startProcess>>;
let database: TestDatabase;
let s3: TestS3Server;
let store: S3Store;
let servers: Record<"a" | "b", Running & { dataDir: string }>;
let admin: { email: string; password: string };
let receiver: Receiver;
const folders = tempFolders();
const folder = folders.make;

beforeAll(async () => {
  if (!onPostgres) return;
  database = await createTestDatabase();
  s3 = await startS3Server();
  store = s3StoreOn(s3);
  receiver = await startReceiver();
  admin = await createTestUser(database.db, { permissions: ["user", "admin"] });
  const start = async (name: "a" | "b") => {
    const dataDir = folder(`vitrine-two-media-${name}-`);
    const env = {
      ...s3.env,
      DATABASE_URL: database.databaseUrl!,
      DATA_DIR: dataDir,
      PORT: "0",
      HOST: "127.0.0.1",
      SESSION_SECRET: TEST_SESSION_SECRET,
      LOG_LEVEL: "warn",
      MEDIA_WORKERS: "1",
      MEDIA_JOB_LEASE_SECONDS: String(LEASE_SECONDS),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    };
    return { ...(await startProcess(env, 90_000)), dataDir };
  };
  const [a, b] = await Promise.all([start("a"), start("b")]);
  servers = { a, b };
}, 120_000);

afterAll(async () => {
  if (!onPostgres) return;
  for (const server of Object.values(servers)) {
    signalTree(server, "SIGCONT");
    server.child.kill("SIGTERM");
  }
  await Promise.all(Object.values(servers).map((server) => exited(server.child)));
  await receiver.close();
  await s3.close();
  await database.drop();
  folders.removeAll();
});

/** A process and all its descendants (the server, its media worker, the worker's ffmpeg), by `ps`. */
function processTree(root: number): Array<{ pid: number; command: string }> {
  const table = execFileSync("ps", ["-e", "-o", "pid=,ppid=,comm="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .map(([pid, ppid, command]) => ({ pid: Number(pid), ppid: Number(ppid), command: command ?? "" }));
  const tree = [{ pid: root, command: "server" }];
  for (let i = 0; i < tree.length; i += 1)
    for (const row of table) if (row.ppid === tree[i]!.pid) tree.push({ pid: row.pid, command: row.command });
  return tree;
}

function signalTree(server: Running, signal: NodeJS.Signals) {
  if (!server.child.pid || server.child.exitCode !== null) return;
  for (const { pid } of processTree(server.child.pid))
    try {
      process.kill(pid, signal);
    } catch {
      // gone meanwhile
    }
}

async function uploadVideo(server: Running, seconds: number) {
  const bucket = await mediaRulesBucket(database.db, SMALL_VIDEO);
  const cookie = await signIn(server.url, admin.email, admin.password);
  const response = await upload(
    server.url,
    "video",
    cookie,
    { bucket: bucket.slug, uid: "u1", properties: JSON.stringify(SMALL_VIDEO) },
    { data: videoOf({ width: 640, height: 360, fps: 25, seconds, codec: "mpeg4" }), name: "clip.mp4" },
  );
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return (JSON.parse(text) as Array<{ _id: string }>)[0]!._id;
}

const jobsOf = async (mediaId: string) =>
  (
    await database.db.query<{ name: string; status: string; attempts: number }>(
      `SELECT name, status, attempts FROM jobs WHERE media_id = $1 ORDER BY seq`,
      [mediaId],
    )
  ).rows;

async function storedFiles(): Promise<string[]> {
  const names: string[] = [];
  for await (const { name } of store.list("files")) names.push(name);
  return names.sort();
}

/** Every key a media version names. */
const namedKeys = async () =>
  (
    await database.db.query<{ key: string }>(
      `SELECT storage_key AS key FROM media
       UNION SELECT details->>'renditionKey' FROM media WHERE details ? 'renditionKey'
       UNION SELECT details->>'customStillKey' FROM media WHERE details ? 'customStillKey'
       UNION SELECT jsonb_array_elements_text(details->'stillKeys') FROM media WHERE jsonb_typeof(details->'stillKeys') = 'array'`,
    )
  ).rows
    .map((row) => row.key)
    .sort();

/** Uploads a video to `runner` while the other server is paused, so that `runner` claims its transcode. */
async function transcodeClaimedBy(runner: Running, other: Running, seconds: number) {
  signalTree(other, "SIGSTOP");
  try {
    const mediaId = await uploadVideo(runner, seconds);
    await expect
      .poll(async () => (await jobsOf(mediaId))[0], { timeout: 30_000, interval: 20 })
      .toMatchObject({
        name: "transcode",
        status: "processing",
        attempts: 1,
      });
    return mediaId;
  } finally {
    signalTree(other, "SIGCONT");
  }
}

describe.skipIf(!onPostgres)("two servers with media workers on one PostgreSQL and one S3 store", () => {
  it("run a video's jobs once, and store the outputs once", async () => {
    const mediaId = await uploadVideo(servers.a, 2);
    await expect
      .poll(async () => (await jobsOf(mediaId)).map((job) => job.status), { timeout: 60_000, interval: 100 })
      .toEqual(["completed", "completed"]);
    expect((await jobsOf(mediaId)).map((job) => job.attempts)).toEqual([1, 1]);
    expect(await storedFiles()).toEqual(await namedKeys());
  });

  it("deliver each webhook once, whichever server recorded or sends it", async () => {
    const bucket: Bucket = await createTestBucket(database.db, {
      jsonSchema: { type: "object", properties: { title: { type: "string" } } },
    });
    const cookie = await signIn(servers.a.url, admin.email, admin.password);
    const form = new URLSearchParams([
      ["url", receiver.url("/once")],
      ["events", "document.saved"],
      ["scope", "some"],
      ["buckets", bucket.slug],
      ["secretMode", "generate"],
    ]);
    const created = await fetch(`${servers.a.url}/settings/webhooks/new`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, ...sameOrigin(servers.a.url) },
      body: form,
    });
    expect(created.status).toBe(201);
    const saved: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const server = i % 2 ? servers.b : servers.a;
      const response = await fetch(`${server.url}/api/v1/buckets/${bucket.slug}/save`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Cookie: await signIn(server.url, admin.email, admin.password),
          ...sameOrigin(server.url),
        },
        body: JSON.stringify({ content: { title: `once ${i}` } }),
      });
      expect(response.status).toBe(201);
      saved.push(((await response.json()) as { _id: string })._id);
    }
    const delivered = async () =>
      (
        await database.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM webhook_deliveries WHERE version_id = ANY($1::uuid[]) AND status = 'delivered'`,
          [saved],
        )
      ).rows[0]!.n;
    await expect.poll(delivered, { timeout: 30_000, interval: 100 }).toBe(20);
    const received = receiver.received.filter((request) => request.path === "/once").map((request) => request.json?.versionId as string);
    expect(received.sort()).toEqual([...saved].sort());
  });

  it("a server paused past its lease while transcoding finds its job taken, stops its ffmpeg and leaves no file behind", async () => {
    const { a, b } = servers;
    const mediaId = await transcodeClaimedBy(a, b, 40);
    // A VM pause: the server, its worker and their ffmpeg all stop; B claims the transcode once the lease ran out.
    signalTree(a, "SIGSTOP");
    try {
      await expect
        .poll(async () => (await jobsOf(mediaId))[0], { timeout: 60_000, interval: 100 })
        .toMatchObject({
          status: "completed",
          attempts: 2,
        });
    } finally {
      signalTree(a, "SIGCONT");
    }
    await expect.poll(() => a.output(), { timeout: 30_000, interval: 100 }).toMatch(/job attempt lost its lease to another runner/);
    await expect.poll(() => processTree(a.child.pid!).filter((row) => row.command === "ffmpeg"), { timeout: 15_000 }).toEqual([]);
    const tmpRoot = path.join(a.dataDir, "media", "tmp");
    await expect.poll(() => readdirSync(tmpRoot).flatMap((dir) => readdirSync(path.join(tmpRoot, dir))), { timeout: 15_000 }).toEqual([]);
    await expect
      .poll(async () => (await jobsOf(mediaId)).map((job) => job.status), { timeout: 60_000, interval: 100 })
      .toEqual(["completed", "completed"]);
    expect(await storedFiles()).toEqual(await namedKeys());
  });

  it("kill -9 of a server with a job in hand: the other finishes it once the lease ran out", async () => {
    const { a, b } = servers;
    const mediaId = await transcodeClaimedBy(b, a, 20);
    signalTree(b, "SIGKILL");
    await exited(b.child);
    await expect
      .poll(async () => (await jobsOf(mediaId)).map((job) => [job.status, job.attempts]), { timeout: 90_000, interval: 100 })
      .toEqual([
        ["completed", 2],
        ["completed", 1],
      ]);
    // The killed attempt put nothing into the store; the finished one put its outputs once.
    expect(await storedFiles()).toEqual(await namedKeys());
  });
});
