import { existsSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { ORPHAN_MIN_AGE_MS, sweepOrphanedFiles } from "@server/media/orphans";
import { createTestBucket, mediaRulesBucket, signedInUser } from "@tests/support/fixtures";
import { get, sameOrigin } from "@tests/support/http";
import { decompressionBombPng, jpegOfSize, pngOfSize, upload, videoOf, wavOf } from "@tests/support/media-fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

let server: TestServer;
let cookie: string;
let bucket: Bucket;

beforeAll(async () => {
  server = await startTestServer();
  bucket = await mediaRulesBucket(server.db);
  ({ cookie } = await signedInUser(server.url, server.db));
});
afterAll(() => server.stop());

type Content = Record<string, unknown> & {
  contentId: string;
  _id: string;
  status: string;
  url: string;
  jobs: Array<{ name: string; status: string; progress: number }>;
};

async function uploaded(response: Response): Promise<Content> {
  const body = (await response.json()) as unknown;
  expect(response.status, JSON.stringify(body)).toBe(200);
  expect(Array.isArray(body)).toBe(true);
  return (body as Content[])[0]!;
}

/** Upload fields for a bucket whose media fields follow `properties`, sent as the field's schema property. */
const fields = async (properties: Record<string, unknown> = {}) => ({
  bucket: (await mediaRulesBucket(server.db, properties)).slug,
  uid: "u1",
  properties: JSON.stringify(properties),
});
const temporaryFiles = () => readdirSync(path.join(server.media.storage.tmpDir));
const mediaRows = async () => (await server.db.query<{ n: number }>("SELECT count(*)::int AS n FROM media")).rows[0]!.n;

async function expectRefused(response: Response, status: number, message: string | RegExp) {
  const body = (await response.json()) as { error: string };
  expect(response.status, body.error).toBe(status);
  if (typeof message === "string") expect(body.error).toBe(message);
  else expect(body.error).toMatch(message);
}

describe("image uploads", () => {
  it("stores an image under a generated key and answers its content, readable and viewable afterwards", async () => {
    const png = await pngOfSize(1920, 1080);
    const content = await uploaded(
      await upload(server.url, "image", cookie, await fields(), { data: png, name: "Zee & strand.png", type: "text/plain" }),
    );
    expect(content).toMatchObject({
      status: "completed",
      mimetype: "image/png",
      originalFilename: "Zee & strand.png",
      dimensions: { width: 1920, height: 1080 },
      uid: "u1",
    });
    const latest = await (await get(server.url, `/api/v1/buckets/image/content/${content.contentId}/latest`, cookie)).json();
    expect(latest).toMatchObject({ contentId: content.contentId, _id: content._id, status: "completed" });
    const view = await get(server.url, content.url, cookie);
    expect(view.status).toBe(200);
    expect(view.headers.get("content-type")).toBe("image/png");
    expect(view.headers.get("content-disposition")).toBe(`inline; filename="Zee & strand.png"; filename*=UTF-8''Zee%20%26%20strand.png`);
    expect(Buffer.from(await view.arrayBuffer()).equals(png)).toBe(true);
    const stored = readdirSync(server.media.storage.filesDir);
    expect(stored.some((name) => name.includes("strand"))).toBe(false);
  });

  it("serves a given version only of its own content (?version=)", async () => {
    const first = await uploaded(
      await upload(server.url, "image", cookie, await fields(), { data: await pngOfSize(1920, 1080), name: "a.png" }),
    );
    const second = await uploaded(
      await upload(server.url, "image", cookie, await fields(), { data: await jpegOfSize(1920, 1080), name: "b.jpg" }),
    );
    const own = await get(server.url, `/api/v1/media/image/${first.contentId}?version=${first._id}`, cookie);
    expect(own.status).toBe(200);
    expect(own.headers.get("content-type")).toBe("image/png");
    const foreign = await get(server.url, `/api/v1/media/image/${first.contentId}?version=${second._id}`, cookie);
    expect(foreign.status).toBe(404);
    expect((await get(server.url, `/api/v1/buckets/image/content/${first.contentId}/${second._id}`, cookie)).status).toBe(404);
    expect((await get(server.url, `/api/v1/buckets/image/content/contentId/${second._id}`, cookie)).status).toBe(200);
  });

  it("answers 304 to a matching ETag and 206 to a byte range", async () => {
    const content = await uploaded(
      await upload(server.url, "image", cookie, await fields(), { data: await jpegOfSize(1920, 1080), name: "a.jpg" }),
    );
    const first = await get(server.url, content.url, cookie);
    await first.arrayBuffer();
    const etag = first.headers.get("etag")!;
    expect((await get(server.url, content.url, cookie, { "If-None-Match": etag })).status).toBe(304);
    const partial = await get(server.url, content.url, cookie, { Range: "bytes=0-9" });
    expect(partial.status).toBe(206);
    expect(partial.headers.get("content-range")).toMatch(/^bytes 0-9\/\d+$/);
    expect((await partial.arrayBuffer()).byteLength).toBe(10);
    expect((await get(server.url, content.url, cookie, { Range: "bytes=99999999-" })).status).toBe(416);
  });

  it.each([
    [{ maxWidth: 1000 }, 1200, 1080, "Image is too wide (1200px), maximum width: 1000px"],
    [{ maxHeight: 1000 }, 1920, 1200, "Image too high (1200px), maximum height: 1000px"],
    [{ minWidth: 2000 }, 1920, 1080, "Image is too narrow (1920px), minimum width: 2000px"],
    [{ minHeight: "4K" }, 1920, 1080, "Image is not high enough (1080px), minimum height: 2160px"],
    [{}, 1280, 720, "Image is too narrow (1280px), minimum width: 1920px\nImage is not high enough (720px), minimum height: 1080px"],
  ])("refuses bounds %j with the spec's message", async (property, width, height, message) => {
    const before = await mediaRows();
    await expectRefused(
      await upload(server.url, "image", cookie, await fields(property), { data: await pngOfSize(width, height), name: "x.png" }),
      422,
      message,
    );
    expect(await mediaRows()).toBe(before);
    expect(temporaryFiles()).toEqual([]);
  });

  it("accepts a named resolution and WxH as bounds", async () => {
    await uploaded(
      await upload(server.url, "image", cookie, await fields({ minWidth: "720p", maxWidth: "1300x800", minHeight: 700 }), {
        data: await pngOfSize(1280, 720),
        name: "x.png",
      }),
    );
  });

  it("takes the rules from the bucket's schema: properties that do not match a field of the bucket are refused, so a client cannot loosen them", async () => {
    const strict = await mediaRulesBucket(server.db, { minWidth: "4K" });
    const small = { data: await pngOfSize(1920, 1080), name: "x.png" };
    const before = await mediaRows();
    const loosened = { bucket: strict.slug, uid: "u1", properties: JSON.stringify({ minWidth: 100 }) };
    await expectRefused(
      await upload(server.url, "image", cookie, loosened, small),
      400,
      /^The field 'properties' matches no image field of this bucket/,
    );
    const none = { bucket: strict.slug, uid: "u1" };
    await expectRefused(await upload(server.url, "image", cookie, none, small), 422, /minimum width: 3840px/);
    const titled = {
      bucket: strict.slug,
      uid: "u1",
      properties: JSON.stringify({ _ref: "b-image", title: "Another title", minWidth: "4K" }),
    };
    await expectRefused(await upload(server.url, "image", cookie, titled, small), 422, /minimum width: 3840px/);
    const plain = await createTestBucket(server.db);
    await expectRefused(
      await upload(server.url, "image", cookie, { bucket: plain.slug, uid: "u1" }, small),
      400,
      "This bucket has no image field.",
    );
    const twoRules = await createTestBucket(server.db, {
      jsonSchema: {
        type: "object",
        properties: { a: { _ref: "b-image", maxWidth: 4000 }, list: { type: "array", items: { _ref: "b-image", maxWidth: 2000 } } },
      },
    });
    await expectRefused(
      await upload(server.url, "image", cookie, { bucket: twoRules.slug, uid: "u1" }, small),
      400,
      /different rules: send the field's schema property in 'properties'/,
    );
    await uploaded(
      await upload(
        server.url,
        "image",
        cookie,
        { bucket: twoRules.slug, uid: "u1", properties: JSON.stringify({ _ref: "b-image", maxWidth: 2000 }) },
        small,
      ),
    );
    expect(await mediaRows()).toBe(before + 1);
    expect(temporaryFiles()).toEqual([]);
  });

  it("refuses a decompression bomb from its header, before decoding", async () => {
    await expectRefused(
      await upload(server.url, "image", cookie, await fields(), { data: decompressionBombPng(), name: "bomb.png" }),
      422,
      /too many pixels/,
    );
  });

  it("decides the type by content: HTML named .jpg and an SVG with a script are not images (415)", async () => {
    const html = Buffer.from(`<!doctype html><html><body><script>alert(1)</script>${"x".repeat(2000)}</body></html>`);
    await expectRefused(
      await upload(server.url, "image", cookie, await fields(), { data: html, name: "photo.jpg", type: "image/jpeg" }),
      415,
      /not an image/,
    );
    const svg = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="1920" height="1080"><script>alert(1)</script>${" ".repeat(2000)}</svg>`,
    );
    await expectRefused(
      await upload(server.url, "image", cookie, await fields(), { data: svg, name: "logo.svg", type: "image/svg+xml" }),
      415,
      /not an image/,
    );
    expect(temporaryFiles()).toEqual([]);
  });

  it("refuses an empty file, a file under 1024 bytes and a request without a file", async () => {
    await expectRefused(
      await upload(server.url, "image", cookie, await fields(), { data: Buffer.alloc(0), name: "empty.png" }),
      400,
      "The file is empty.",
    );
    await expectRefused(
      await upload(server.url, "file", cookie, await fields(), { data: Buffer.alloc(1000, 65), name: "small.txt" }),
      422,
      /too small/,
    );
    await expectRefused(
      await upload(server.url, "image", cookie, await fields(), null),
      400,
      "Send exactly one file, in the field named 'file'.",
    );
  });

  it("refuses two files, a malformed body and a bad boundary with 400", async () => {
    const form = new FormData();
    form.append("bucket", bucket.slug);
    form.append("file", new Blob([new Uint8Array(await pngOfSize(1920, 1080))]), "a.png");
    form.append("file", new Blob([new Uint8Array(await pngOfSize(1920, 1080))]), "b.png");
    const two = await fetch(`${server.url}/api/v1/media/image/upload/`, {
      method: "POST",
      headers: { Cookie: cookie, ...sameOrigin(server.url) },
      body: form,
    });
    expect(two.status).toBe(400);
    const noBoundary = await fetch(`${server.url}/api/v1/media/image/upload/`, {
      method: "POST",
      headers: { Cookie: cookie, ...sameOrigin(server.url), "Content-Type": "multipart/form-data" },
      body: "garbage",
    });
    await expectRefused(noBoundary, 400, /boundary/);
    const cut = await fetch(`${server.url}/api/v1/media/image/upload/`, {
      method: "POST",
      headers: { Cookie: cookie, ...sameOrigin(server.url), "Content-Type": "multipart/form-data; boundary=XYZ" },
      body: `--XYZ\r\nContent-Disposition: form-data; name="bucket"\r\n\r\n${bucket.slug}\r\n--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nnot finished`,
    });
    expect(cut.status).toBe(400);
    expect(temporaryFiles()).toEqual([]);
  });

  it("checks access: 401 signed out, 404 for a bucket the user may not see, also when reading", async () => {
    const content = await uploaded(
      await upload(server.url, "image", cookie, await fields(), { data: await pngOfSize(1920, 1080), name: "a.png" }),
    );
    await expectRefused(
      await upload(server.url, "image", undefined, await fields(), { data: await pngOfSize(1920, 1080), name: "a.png" }),
      401,
      "Sign in first",
    );
    const other = await signedInUser(server.url, server.db, { buckets: ["some-other-bucket"] });
    await expectRefused(
      await upload(server.url, "image", other.cookie, await fields(), { data: await pngOfSize(1920, 1080), name: "a.png" }),
      404,
      "No such bucket",
    );
    expect((await get(server.url, content.url, other.cookie)).status).toBe(404);
    expect((await get(server.url, `/api/v1/buckets/image/content/${content.contentId}/latest`, other.cookie)).status).toBe(404);
    expect((await get(server.url, content.url)).status).toBe(401);
    expect(temporaryFiles()).toEqual([]);
  });
});

describe("file uploads", () => {
  it("keeps a hostile name only as data and sends it back RFC 6266-encoded, always as a download", async () => {
    const data = Buffer.from("name,value\n".repeat(200));
    const content = await uploaded(await upload(server.url, "file", cookie, await fields(), { data, name: "..\\..\\etc/pass\twd ü.csv" }));
    expect(content.originalFilename).toBe("passwd ü.csv");
    // The point is that no control character (U+0000 to U+001F) survives in the stored name.
    // eslint-disable-next-line no-control-regex
    expect(content.originalFilename).not.toMatch(/[/\\\u0000-\u001f]/);
    const download = await get(server.url, content.url, cookie);
    expect(download.headers.get("content-disposition")).toMatch(/^attachment; filename="[^"/\\]*"; filename\*=UTF-8''/);
  });

  it("restricts extensions with allowedFiles by content (415) and never serves SVG inline", async () => {
    const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script>${" ".repeat(2000)}</svg>`);
    await expectRefused(
      await upload(server.url, "file", cookie, await fields({ allowedFiles: ["pdf"] }), { data: svg, name: "doc.pdf" }),
      415,
      /not allowed/,
    );
    const content = await uploaded(
      await upload(server.url, "file", cookie, await fields({ allowedFiles: ["svg"] }), { data: svg, name: "logo.svg" }),
    );
    const served = await get(server.url, content.url, cookie);
    expect(served.headers.get("content-type")).toBe("application/octet-stream");
    expect(served.headers.get("content-disposition")).toMatch(/^attachment;/);
    expect(served.headers.get("content-security-policy")).toContain("sandbox");
  });

  it("cuts off a file above maxFilesize while streaming (413) and leaves nothing behind", async () => {
    const before = await mediaRows();
    await expectRefused(
      await upload(server.url, "file", cookie, await fields({ maxFilesize: 4096 }), { data: Buffer.alloc(64 * 1024, 66), name: "big.txt" }),
      413,
      /too large/,
    );
    expect(await mediaRows()).toBe(before);
    expect(temporaryFiles()).toEqual([]);
  });

  it("stores audio/wav by content for the audio player", async () => {
    const content = await uploaded(await upload(server.url, "file", cookie, await fields(), { data: wavOf(1), name: "tone.bin" }));
    expect(content.mimetype).toMatch(/^audio\/(wav|vnd\.wave|x-wav)$/);
  });

  it("sweeps stored files no media version names once they are an hour old (a lost job attempt's outputs), never a named one", async () => {
    const named = await uploaded(
      await upload(server.url, "image", cookie, await fields(), { data: await jpegOfSize(1920, 1080), name: "kept.jpg" }),
    );
    const { rows } = await server.db.query<{ key: string }>(`SELECT storage_key AS key FROM media WHERE id = $1`, [named._id]);
    const orphan = server.media.storage.pathOf(server.media.storage.newKey("mp4"));
    writeFileSync(orphan, "the output of an attempt that lost its job");
    const young = server.media.storage.pathOf(server.media.storage.newKey("mp4"));
    writeFileSync(young, "an output whose row is about to commit");
    const hoursAgo = new Date(Date.now() - 2 * ORPHAN_MIN_AGE_MS);
    for (const file of [orphan, server.media.storage.pathOf(rows[0]!.key)]) utimesSync(file, hoursAgo, hoursAgo);
    expect(await sweepOrphanedFiles(server.db, server.media.storage)).toBe(1);
    expect([existsSync(orphan), existsSync(young), existsSync(server.media.storage.pathOf(rows[0]!.key))]).toEqual([false, true, true]);
    rmSync(young);
  });

  it("sweeps temporary files a killed upload left behind, and an aborted upload leaves none", async () => {
    const stale = path.join(server.media.storage.tmpDir, "00000000-0000-4000-8000-000000000000.part");
    writeFileSync(stale, "half an upload");
    utimesSync(stale, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    expect(await server.media.storage.sweep(10 * 60 * 1000)).toBe(1);
    expect(temporaryFiles()).toEqual([]);

    const before = await mediaRows();
    const controller = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(stream) {
        stream.enqueue(
          new TextEncoder().encode(
            `--B\r\nContent-Disposition: form-data; name="bucket"\r\n\r\n${bucket.slug}\r\n--B\r\nContent-Disposition: form-data; name="file"; filename="v.bin"\r\n\r\n`,
          ),
        );
        stream.enqueue(new Uint8Array(256 * 1024));
      },
    });
    const sent = fetch(`${server.url}/api/v1/media/file/upload`, {
      method: "POST",
      headers: { Cookie: cookie, ...sameOrigin(server.url), "Content-Type": "multipart/form-data; boundary=B" },
      body,
      signal: controller.signal,
      duplex: "half",
    } as RequestInit).catch(() => undefined);
    // The client goes away once the server has started writing the file, not after some guessed time.
    await expect.poll(() => temporaryFiles().length, { timeout: 10_000 }).toBeGreaterThan(0);
    controller.abort();
    await sent;
    await expect.poll(() => temporaryFiles(), { timeout: 5000 }).toEqual([]);
    expect(await mediaRows()).toBe(before);
  });
});

describe("video uploads and jobs", () => {
  async function untilSettled(contentId: string, timeout = 60_000): Promise<Content> {
    let content: Content | undefined;
    await expect
      .poll(
        async () => {
          content = (await (await get(server.url, `/api/v1/buckets/video/content/${contentId}/latest`, cookie)).json()) as Content;
          return content.status;
        },
        { timeout, interval: 250 },
      )
      .not.toBe("processing");
    return content!;
  }

  it("probes, transcodes to H.264/AAC MP4 and extracts stills, reporting progress, then plays with ranges", async () => {
    const content = await uploaded(
      await upload(server.url, "video", cookie, await fields(), {
        data: videoOf({ width: 1280, height: 720, fps: 25, seconds: 2, codec: "mpeg4" }),
        name: "clip.mp4",
      }),
    );
    expect(content).toMatchObject({ status: "processing", dimensions: { width: 1280, height: 720 }, fps: 25, codec: "mpeg4" });
    expect(content.jobs.map((job) => job.name)).toEqual(["transcode", "still-creation"]);
    const done = await untilSettled(content.contentId);
    expect(done.status).toBe("completed");
    expect(done.jobs.every((job) => job.status === "completed" && job.progress === 100)).toBe(true);
    const play = await get(server.url, done.url, cookie, { Range: "bytes=0-99" });
    expect(play.status).toBe(206);
    expect(play.headers.get("content-type")).toBe("video/mp4");
    const thumbs = done.thumbs as Array<{ url: string }>;
    expect(thumbs.length).toBeGreaterThanOrEqual(2);
    const still = await get(server.url, thumbs[1]!.url, cookie);
    expect(still.status).toBe(200);
    expect(still.headers.get("content-type")).toBe("image/jpeg");
  });

  it.each([
    [{ minWidth: 1920 }, { width: 1280, height: 720, fps: 25 }, "Video width is smaller then the minumum width of 1920px"],
    [{ minFps: 30, maxFps: 30 }, { width: 1280, height: 720, fps: 25 }, "Video framerate is not 30 fps"],
    [{ minFps: 29, maxFps: 31 }, { width: 1280, height: 720, fps: 25 }, "Video framerate is not between 29 & 31 fps"],
    [{ codec: "vp9" }, { width: 1280, height: 720, fps: 25 }, "Video codec is not equal to vp9"],
    [
      {},
      { width: 640, height: 480, fps: 25 },
      "Video width is smaller then the minumum width of 1280px\nVideo height is smaller than the minimum height of 720px",
    ],
  ])("refuses bounds %j with the spec's message", async (property, video, message) => {
    await expectRefused(
      await upload(server.url, "video", cookie, await fields(property), { data: videoOf({ ...video, seconds: 1 }), name: "v.mp4" }),
      422,
      message,
    );
    expect(temporaryFiles()).toEqual([]);
  });

  it("refuses a truncated video", async () => {
    const whole = videoOf({ width: 1280, height: 720, fps: 25, seconds: 2 });
    await expectRefused(
      await upload(server.url, "video", cookie, await fields(), { data: whole.subarray(0, Math.floor(whole.length / 3)), name: "cut.mp4" }),
      422,
      /could not be read/,
    );
  });

  it("runs a job again when its worker is killed mid-transcode, and completes it", async () => {
    const content = await uploaded(
      await upload(server.url, "video", cookie, await fields(), {
        data: videoOf({ width: 1920, height: 1080, fps: 30, seconds: 6, codec: "mpeg4" }),
        name: "long.mp4",
      }),
    );
    await expect.poll(() => server.media.jobs.busyWorkerPids().length, { timeout: 20_000, interval: 20 }).toBeGreaterThan(0);
    process.kill(server.media.jobs.busyWorkerPids()[0]!, "SIGKILL");
    const done = await untilSettled(content.contentId, 120_000);
    expect(done.status).toBe("completed");
    const attempts = await server.db.query<{ attempts: number }>("SELECT attempts FROM jobs WHERE media_id = $1 AND name = 'transcode'", [
      content._id,
    ]);
    expect(attempts.rows[0]!.attempts).toBe(2);
  }, 150_000);
});
