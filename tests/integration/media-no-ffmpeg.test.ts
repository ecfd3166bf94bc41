import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mediaRulesBucket } from "@tests/support/fixtures";
import { createTestUser, get, signIn } from "@tests/support/http";
import { pngOfSize, upload, videoOf } from "@tests/support/media-fixtures";
import { createTestDatabase, type TestDatabase } from "@tests/support/server";
import { exited, processEnv, startProcess, uploaded } from "@tests/support/media-server";

/*
 * A machine without ffmpeg. The server starts, says so in its log, video fields say video processing is
 * unavailable and video uploads are refused with that message, while images and files still work; given
 * FFMPEG_PATH/FFPROBE_PATH it logs which binaries and version it uses. Real `npm start` processes whose PATH
 * holds no ffmpeg.
 */

const children: ChildProcess[] = [];
let database: TestDatabase | undefined;
const mediaDir = mkdtempSync(path.join(tmpdir(), "vitrine-no-ffmpeg-"));
const emptyPath = mkdtempSync(path.join(tmpdir(), "vitrine-empty-path-"));
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await Promise.all(children.map(exited));
  await database?.drop();
  rmSync(mediaDir, { recursive: true, force: true });
  rmSync(emptyPath, { recursive: true, force: true });
});

describe("without ffmpeg", () => {
  it("keeps images and files working, refuses videos with a clear message, and uses FFMPEG_PATH once given", async () => {
    database = await createTestDatabase();
    const user = await createTestUser(database.db);
    const bucket = await mediaRulesBucket(database.db);
    await database.db.close();
    const env = processEnv(database, mediaDir, { LOG_LEVEL: "info", PATH: emptyPath });
    const fields = { bucket: bucket.slug, uid: "u1", properties: "{}" };
    const video = { data: videoOf({ width: 1280, height: 720, fps: 25, seconds: 1 }), name: "clip.mp4" };

    const bare = await startProcess(env);
    children.push(bare.child);
    // The log is written asynchronously: it may reach the pipe after the line that says the server listens.
    await expect.poll(() => bare.output(), { timeout: 10_000 }).toContain("video processing is unavailable: no ffmpeg/ffprobe found");
    const cookie = await signIn(bare.url, user.email, user.password);
    const refused = await upload(bare.url, "video", cookie, fields, video);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({
      error: "Video processing is unavailable on this server (no ffmpeg): videos cannot be uploaded.",
    });
    expect(
      (await uploaded(await upload(bare.url, "image", cookie, fields, { data: await pngOfSize(1920, 1080), name: "a.png" }))).status,
    ).toBe("completed");
    expect((await uploaded(await upload(bare.url, "file", cookie, fields, { data: Buffer.alloc(2000, 0x61), name: "a.txt" }))).status).toBe(
      "completed",
    );
    const page = await (await get(bare.url, `/b/${bucket.slug}/new`, cookie)).text();
    expect(page).toContain("Video processing is unavailable on this server (no ffmpeg): videos cannot be uploaded.");
    bare.child.kill("SIGTERM");
    await exited(bare.child);

    const configured = await startProcess({ ...env, FFMPEG_PATH: "/usr/bin/ffmpeg", FFPROBE_PATH: "/usr/bin/ffprobe", MEDIA_WORKERS: "0" });
    children.push(configured.child);
    const logLine = () =>
      configured
        .output()
        .split("\n")
        .find((text) => text.includes("video processing with ffmpeg"));
    await expect.poll(logLine, { timeout: 10_000 }).toBeDefined();
    const line = logLine();
    expect(line && JSON.parse(line)).toMatchObject({
      ffmpeg: "/usr/bin/ffmpeg",
      ffprobe: "/usr/bin/ffprobe",
      source: "environment",
      version: expect.stringMatching(/^ffmpeg version/),
    });
    const accepted = await uploaded(await upload(configured.url, "video", cookie, fields, video));
    expect(accepted.jobs.map((job) => job.name)).toEqual(["transcode", "still-creation"]);
    const page2 = await (await get(configured.url, `/b/${bucket.slug}/new`, cookie)).text();
    expect(page2).not.toContain("Video processing is unavailable");
  }, 60_000);
});
