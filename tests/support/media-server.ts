import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "vitest";
import type { Db } from "@server/db/client";
import type { Bucket } from "@server/content/buckets";
import { createTestBucket, signedInUser } from "./fixtures";
import { startTestServer, TEST_SESSION_SECRET, type TestDatabase, type TestServer } from "./server";
import { sameOrigin } from "./http";

/** Media test servers (in-process and real `npm start` processes) and the requests and generated files the media tests send them. */
export const ROOT = path.resolve(import.meta.dirname, "../..");
export const BUILD_DIR = path.resolve(ROOT, process.env.VITRINE_BUILD_DIR ?? "build");
export const MiB = 1024 * 1024;
export const MAX_IMAGE_BYTES = 40 * MiB;
export const MAX_VIDEO_BYTES = 1024 * MiB;
/** server/media/start.ts STALE_TEMPORARY_MS (docs/configuration.md, "Fixed limits"): not configurable. */
export const STALE_TEMPORARY_MS = 10 * 60 * 1000;

export type Kind = "image" | "video" | "file";
export type Content = Record<string, unknown> & {
  contentId: string;
  _id: string;
  status: string;
  url: string;
  error?: string;
  originalFilename: string;
  jobs: Array<{ name: string; status: string; progress: number }>;
};

const REF: Record<Kind, string> = { image: "b-image", video: "b-video", file: "b-file" };

/** A bucket whose schema has one field of this kind with these rules; the fields an upload to it sends. */
export async function fieldFor(db: Db, kind: Kind, rules: Record<string, unknown> = {}, extra: Partial<Bucket> = {}) {
  const property = { type: "string", title: "Media", _ref: REF[kind], ...rules };
  const bucket = await createTestBucket(db, {
    jsonSchema: { type: "object", properties: { title: { type: "string" }, media: property } },
    ...extra,
  });
  return { bucket, fields: { bucket: bucket.slug, uid: "u1", properties: JSON.stringify(property) } };
}

export async function json<T = Content>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

export async function uploaded(response: Response): Promise<Content> {
  return (await json<Content[]>(response))[0]!;
}

export async function expectRefused(response: Response, status: number, message: string | RegExp) {
  const body = await json<{ error: string }>(response, status);
  if (typeof message === "string") expect(body.error).toBe(message);
  else expect(body.error).toMatch(message);
}

/** Generated files of an exact size: the bytes of `head`, then zeros. */
export function padded(head: Buffer, size: number): Buffer {
  expect(head.length).toBeLessThanOrEqual(size);
  return Buffer.concat([head, Buffer.alloc(size - head.length)]);
}

/**
 * Generated fixtures, kept for the test process (which runs several files: vitest.config.ts) so a video is made
 * once, and removed when it exits.
 */
export const fixtureDir = mkdtempSync(path.join(tmpdir(), "vitrine-media-fixtures-"));
process.once("exit", () => rmSync(fixtureDir, { recursive: true, force: true }));

/** An H.264 MP4 with its index first (so bytes appended after it do not matter), from ffmpeg's lavfi source. */
export function faststartVideo(width: number, height: number, fps: number, seconds: number): Buffer {
  const file = path.join(fixtureDir, `${width}x${height}-${fps}-${seconds}-faststart.mp4`);
  if (!existsSync(file)) {
    execFileSync("ffmpeg", [
      "-hide_banner",
      "-loglevel",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      `testsrc2=size=${width}x${height}:rate=${fps}:duration=${seconds}`,
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      "-pix_fmt",
      "yuv420p",
      "-movflags",
      "+faststart",
      file,
    ]);
  }
  return readFileSync(file);
}

export interface Streamed {
  status: number;
  body: string;
  /** File bytes handed to the socket when the answer came (or the connection ended). */
  sent: number;
}

/**
 * A multipart upload over node:http whose file is generated while it is sent, 1 MiB at a time with
 * backpressure: `head` first, then zeros, up to `size` bytes (Content-Length) or without end (chunked) until
 * the server answers. Nothing but one chunk is held in memory.
 */
export function streamUpload(
  baseUrl: string,
  kind: Kind,
  cookie: string,
  fields: Record<string, string>,
  options: { size?: number; head?: Buffer; filename?: string },
): { done: Promise<Streamed>; sent(): number } {
  const boundary = `----vitrine-test-${randomUUID()}`;
  const preamble = Buffer.from(
    Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join("") +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${options.filename ?? "big.bin"}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const epilogue = Buffer.from(`\r\n--${boundary}--\r\n`);
  const head = options.head ?? Buffer.alloc(0);
  const chunk = Buffer.alloc(MiB);
  const headers: Record<string, string> = {
    "Content-Type": `multipart/form-data; boundary=${boundary}`,
    Cookie: cookie,
    ...sameOrigin(baseUrl),
  };
  if (options.size !== undefined) headers["Content-Length"] = String(preamble.length + options.size + epilogue.length);
  const request = http.request(`${baseUrl}/api/v1/media/${kind}/upload${kind === "file" ? "" : "/"}`, { method: "POST", headers });
  let sent = 0;
  // Set by the request's callbacks: a property, which TypeScript does not narrow to its initial value here.
  const state = { stopped: false };
  const done = new Promise<Streamed>((resolve, reject) => {
    request.on("response", (response) => {
      state.stopped = true;
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (text: string) => (body += text));
      response.on("end", () => {
        resolve({ status: response.statusCode!, body, sent });
        request.destroy();
      });
      response.on("error", reject);
    });
    request.on("error", (error) => {
      state.stopped = true;
      reject(Object.assign(error, { sent }));
    });
  });
  const writable = () =>
    new Promise<void>((resolve) => {
      const go = () => {
        request.off("drain", go);
        request.off("close", go);
        resolve();
      };
      request.on("drain", go);
      request.on("close", go);
    });
  void (async () => {
    request.write(preamble);
    if (head.length) {
      request.write(head);
      sent += head.length;
    }
    while (!state.stopped && !request.destroyed && (options.size === undefined || sent < options.size)) {
      const length = options.size === undefined ? chunk.length : Math.min(chunk.length, options.size - sent);
      const ok = request.write(length === chunk.length ? chunk : chunk.subarray(0, length));
      sent += length;
      if (!ok) await writable();
    }
    if (!state.stopped && !request.destroyed) request.end(epilogue);
  })().catch(() => undefined);
  return { done, sent: () => sent };
}

/** An in-process server without a job runner (MEDIA_WORKERS=0) and a signed-in user's cookie. */
export async function startMediaServer(): Promise<{ server: TestServer; cookie: string }> {
  const server = await startTestServer({ env: { MEDIA_WORKERS: "0" } });
  const { cookie } = await signedInUser(server.url, server.db);
  return { server, cookie };
}

/** The environment of a real server process on the test's database and its own media folder. */
export function processEnv(database: TestDatabase, mediaDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATA_DIR: database.dataDir,
    MEDIA_DIR: mediaDir,
    PORT: "0",
    HOST: "127.0.0.1",
    SESSION_SECRET: TEST_SESSION_SECRET,
    LOG_LEVEL: "warn",
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    ...extra,
  };
}

export const countMedia = async (db: Db) => (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM media")).rows[0]!.n;

/** `npm start` (scripts/start.mjs) as a real process; resolves with its URL once it listens. */
export function startProcess(
  env: Record<string, string>,
  startTimeoutMs = 30_000,
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  // start.mjs resolves VITRINE_BUILD_DIR against the repository: hand it a relative path. --no-build: serve the
  // suite's build as it is, never rebuild it under the other tests.
  const child = spawn(process.execPath, ["scripts/start.mjs", "--no-build"], {
    cwd: ROOT,
    env: { ...process.env, ...env, VITRINE_BUILD_DIR: path.relative(ROOT, BUILD_DIR), NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => (output += text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => (output += text));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), startTimeoutMs);
    child.stdout.on("data", () => {
      const match = /Vitrine is running at (\S+)\n/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]!, output: () => output });
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${signal ?? code}):\n${output}`));
    });
  });
}

export function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once("exit", () => resolve()));
}
