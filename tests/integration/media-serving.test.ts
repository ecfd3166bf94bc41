import { execFile, fork, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInUser } from "@tests/support/fixtures";
import { createTestUser, get, sameOrigin, signIn } from "@tests/support/http";
import { pngOfSize, upload, videoOf } from "@tests/support/media-fixtures";
import type { TestServer } from "@tests/support/server";
import {
  BUILD_DIR,
  type Content,
  fieldFor,
  json,
  uploaded,
  expectRefused,
  countMedia,
  fixtureDir,
  startMediaServer,
} from "@tests/support/media-server";

/*
 * What media serving and probing may never do. ffmpeg and ffprobe read local files only; HTML and SVG
 * are never served inline; names go out RFC 6266-encoded; ranges; and every media read checks access.
 */

/** One server for the tests that need no job to run: MEDIA_WORKERS=0. */
let server: TestServer;
let cookie: string;
beforeAll(async () => {
  ({ server, cookie } = await startMediaServer());
});
afterAll(() => server.stop());
const temporaryFiles = () => readdirSync(server.media.storage.tmpDir);

describe("ffmpeg and ffprobe read local files only (protocol whitelist: file)", () => {
  let listener: net.Server;
  let port: number;
  let connections = 0;
  let playlist: string;

  beforeAll(async () => {
    listener = net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    port = (listener.address() as net.AddressInfo).port;
    // An HLS playlist whose segment is on the network: a demuxer following it would connect to `listener`.
    playlist = path.join(fixtureDir, "remote.m3u8");
    writeFileSync(
      playlist,
      `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.0,\nhttp://127.0.0.1:${port}/segment.ts\n#EXT-X-ENDLIST\n${"# padding\n".repeat(150)}`,
    );
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  it("the fixture is meaningful: ffprobe allowed http does connect", async () => {
    // (ffmpeg's own default for a local input, file,crypto,data, refuses http too; ours is narrower still.)
    connections = 0;
    await promisify(execFile)("ffprobe", ["-hide_banner", "-v", "error", "-protocol_whitelist", "file,http,tcp", playlist], {
      timeout: 20_000,
    }).catch(() => undefined);
    expect(connections).toBeGreaterThan(0);
  });

  it("probing an upload (the server's ffprobe options) never connects", async () => {
    const { probeVideo, PROBE_OPTIONS } = await import("@server/media/ffmpeg");
    expect(PROBE_OPTIONS).toEqual(expect.arrayContaining(["-protocol_whitelist", "file"]));
    connections = 0;
    await expect(probeVideo({ ffmpeg: "ffmpeg", ffprobe: "ffprobe", version: "", source: "system" }, playlist)).rejects.toMatchObject({
      status: 422,
      key: "mediaChecks.video.damaged",
    });
    expect(connections).toBe(0);
  });

  it("the built media worker refuses to follow the playlist: the job fails and nothing connects", async () => {
    const workerPath = path.join(BUILD_DIR, "server/media-worker.js");
    const outputDir = mkdtempSync(path.join(fixtureDir, "out-"));
    const worker: ChildProcess = fork(workerPath, [], { stdio: ["ignore", "ignore", "ignore", "ipc"], serialization: "json" });
    try {
      connections = 0;
      const reply = await new Promise<{ type: string; error?: string }>((resolve) => {
        worker.on("message", (message: { type: string; error?: string }) => {
          if (message.type === "ready") {
            worker.send({
              type: "job",
              job: {
                jobId: "j1",
                name: "transcode",
                ffmpeg: "ffmpeg",
                input: playlist,
                outputDir,
                duration: 10,
                stillCount: 5,
                timeLimitMs: 60_000,
              },
            });
          } else if (message.type === "done" || message.type === "failed") resolve(message);
        });
      });
      expect(reply.type).toBe("failed");
      expect(reply.error).toMatch(/ffmpeg exited with/);
      expect(reply.error).toContain("Protocol 'http' not on whitelist 'file'");
      expect(connections).toBe(0);
    } finally {
      worker.kill("SIGKILL");
    }
  });

  it("and an upload of that playlist as a video is refused by its content (415) before ffprobe sees it", async () => {
    const { fields } = await fieldFor(server.db, "video");
    connections = 0;
    const data = readFileSync(playlist);
    await expectRefused(
      await upload(server.url, "video", cookie, fields, { data, name: "clip.mp4", type: "video/mp4" }),
      415,
      /not a video/,
    );
    expect(connections).toBe(0);
    expect(temporaryFiles()).toEqual([]);
  });
});

describe("serving: HTML and SVG never inline, RFC 6266 names, ranges", () => {
  let fileFields: Record<string, string>;

  beforeAll(async () => {
    ({ fields: fileFields } = await fieldFor(server.db, "file"));
  });

  const html = Buffer.from(
    `<!doctype html><html><body><script>document.title = document.cookie</script>${"<p>x</p>".repeat(300)}</body></html>`,
  );
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script>${" ".repeat(2000)}</svg>`,
  );

  it.each([
    ["page.html", html, "application/octet-stream"],
    ["page.htm", html, "application/octet-stream"],
    ["photo.jpg", html, "text/plain"],
    ["logo.svg", svg, "application/octet-stream"],
  ])("a file named %s with HTML or SVG content is a download of a type no browser renders", async (name, data, type) => {
    const content = await uploaded(await upload(server.url, "file", cookie, fileFields, { data, name, type: "text/html" }));
    expect(content.mimetype).toBe(type);
    for (const url of [content.url, `${content.url}?download`, `${content.url}?version=${content._id}`]) {
      const served = await get(server.url, url, cookie);
      expect(served.status, url).toBe(200);
      expect(served.headers.get("content-type")).toBe(type);
      expect(served.headers.get("content-disposition")).toMatch(/^attachment;/);
      expect(served.headers.get("x-content-type-options")).toBe("nosniff");
      expect(served.headers.get("content-security-policy")).toMatch(/(^|;\s*)sandbox(;|$)/);
      expect(Buffer.from(await served.arrayBuffer()).equals(data)).toBe(true);
    }
  });

  const rfc5987 = (name: string) => encodeURIComponent(name).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

  /** The name sent exactly, as RFC 5987 `filename*` (browsers' FormData would rewrite `"` to %22). */
  function uploadNamed(name: string, data: Buffer) {
    const boundary = `----vitrine-test-${randomUUID()}`;
    const parts = Object.entries(fileFields).map(
      ([field, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n${value}\r\n`,
    );
    const body = Buffer.concat([
      Buffer.from(
        `${parts.join("")}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''${rfc5987(name)}\r\n\r\n`,
      ),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return fetch(`${server.url}/api/v1/media/file/upload`, {
      method: "POST",
      headers: { Cookie: cookie, ...sameOrigin(server.url), "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body,
    });
  }

  it.each([
    [
      'Café "menu" 100%.txt',
      'Café "menu" 100%.txt',
      `attachment; filename="Caf_ _menu_ 100_.txt"; filename*=UTF-8''Caf%C3%A9%20%22menu%22%20100%25.txt`,
    ],
    [
      "it's (1) *final*!.txt",
      "it's (1) *final*!.txt",
      `attachment; filename="it's (1) *final*!.txt"; filename*=UTF-8''it%27s%20%281%29%20%2Afinal%2A!.txt`,
    ],
    ["日本語.txt", "日本語.txt", `attachment; filename="___.txt"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E.txt`],
    ["../../..", "upload", `attachment; filename="upload"; filename*=UTF-8''upload`],
    ["..\\..\\etc/passwd", "passwd", `attachment; filename="passwd"; filename*=UTF-8''passwd`],
    [
      "C:\\Users\\x\\..\\rapport\u0007\u001b[31m.txt",
      "rapport[31m.txt",
      `attachment; filename="rapport[31m.txt"; filename*=UTF-8''rapport%5B31m.txt`,
    ],
    [
      "a\r\nSet-Cookie: x=1.txt",
      "aSet-Cookie: x=1.txt",
      `attachment; filename="aSet-Cookie: x=1.txt"; filename*=UTF-8''aSet-Cookie%3A%20x%3D1.txt`,
    ],
    ["\u0000\u0001", "upload", `attachment; filename="upload"; filename*=UTF-8''upload`],
  ])(
    "the name %j is kept as %j and comes back RFC 6266-encoded: an ASCII fallback and the exact UTF-8 name",
    async (name, kept, header) => {
      const content = await uploaded(await uploadNamed(name, Buffer.alloc(2000, 0x61)));
      expect(content.originalFilename).toBe(kept);
      const served = await get(server.url, content.url, cookie);
      expect(served.headers.get("content-disposition")).toBe(header);
      const stored = readdirSync(server.media.storage.filesDir);
      expect(stored.every((file) => /^[0-9a-f-]{36}(\.[a-z0-9]+)?$/.test(file))).toBe(true);
    },
  );

  it("strips C1 control characters and bidirectional overrides from the name too", async () => {
    const content = await uploaded(await uploadNamed("a\u009b31mb\u0085c.txt", Buffer.alloc(2000, 0x61)));
    expect(content.originalFilename).toBe("a31mbc.txt");
    const spoofed = await uploaded(await uploadNamed("invoice\u202Etxt.exe", Buffer.alloc(2000, 0x61)));
    expect(spoofed.originalFilename).toBe("invoicetxt.exe");
  });

  it("byte ranges: suffix, open-ended, single byte, and HEAD without a body", async () => {
    const data = Buffer.from(Array.from({ length: 4096 }, (_, i) => 65 + (i % 26)));
    const content = await uploaded(await upload(server.url, "file", cookie, fileFields, { data, name: "abc.txt" }));
    const range = async (header: string, status: number, contentRange: string, bytes: Buffer) => {
      const response = await get(server.url, content.url, cookie, { Range: header });
      expect(response.status, header).toBe(status);
      expect(response.headers.get("content-range")).toBe(contentRange);
      expect(response.headers.get("accept-ranges")).toBe("bytes");
      expect(Buffer.from(await response.arrayBuffer()).equals(bytes), header).toBe(true);
    };
    await range("bytes=-100", 206, "bytes 3996-4095/4096", data.subarray(3996));
    await range("bytes=4000-", 206, "bytes 4000-4095/4096", data.subarray(4000));
    await range("bytes=10-10", 206, "bytes 10-10/4096", data.subarray(10, 11));
    await range("bytes=4090-99999", 206, "bytes 4090-4095/4096", data.subarray(4090));
    const head = await fetch(`${server.url}${content.url}`, { method: "HEAD", headers: { Cookie: cookie } });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("4096");
    expect(head.headers.get("etag")).toBeTruthy();
  });
});

describe("access on every media call", () => {
  let outsider: string;
  let noPermission: string;
  let image: Content;
  let video: Content;
  let file: Content;
  let imageFields: Record<string, string>;

  beforeAll(async () => {
    ({ cookie: outsider } = await signedInUser(server.url, server.db, { buckets: ["some-other-bucket"] }));
    const bare = await createTestUser(server.db, { permissions: [] });
    noPermission = await signIn(server.url, bare.email, bare.password);
    const imageField = await fieldFor(server.db, "image");
    imageFields = imageField.fields;
    image = await uploaded(await upload(server.url, "image", cookie, imageFields, { data: await pngOfSize(1920, 1080), name: "a.png" }));
    video = await uploaded(
      await upload(server.url, "video", cookie, (await fieldFor(server.db, "video")).fields, {
        data: videoOf({ width: 1280, height: 720, fps: 25, seconds: 1 }),
        name: "v.mp4",
      }),
    );
    file = await uploaded(
      await upload(server.url, "file", cookie, (await fieldFor(server.db, "file")).fields, {
        data: Buffer.alloc(2000, 0x61),
        name: "f.txt",
      }),
    );
  });

  const reads = () => [
    `/api/v1/buckets/image/content/${image.contentId}/latest`,
    `/api/v1/buckets/video/content/${video.contentId}/latest`,
    `/api/v1/buckets/file/content/${file.contentId}/latest`,
    `/api/v1/buckets/image/content/contentId/${image._id}`,
    `/api/v1/buckets/image/content/${image.contentId}/${image._id}`,
    `/api/v1/media/image/${image.contentId}`,
    `/api/v1/media/image/${image.contentId}?version=${image._id}`,
    `/api/v1/media/video/${video.contentId}`,
    `/api/v1/media/file/${file.contentId}`,
    `/api/v1/media/file/${file.contentId}?download`,
    `/api/v1/still/${video.contentId}/0`,
    `/api/v1/still/${video.contentId}/custom`,
  ];

  it("the owner's reads work (the still is not made yet: no worker runs)", async () => {
    for (const url of reads()) {
      const response = await get(server.url, url, cookie);
      expect(response.status, url).toBe(url.includes("/still/") ? 404 : 200);
      if (url.includes("/still/")) expect(await response.json()).toEqual({ error: "No such still" });
    }
  });

  it("signed out: 401 'Sign in first' on every read", async () => {
    for (const url of reads()) await expectRefused(await get(server.url, url), 401, "Sign in first");
  });

  it("an account without the user permission: 403 on every read and write", async () => {
    for (const url of reads()) expect((await get(server.url, url, noPermission)).status, url).toBe(403);
    expect(
      (await upload(server.url, "image", noPermission, imageFields, { data: await pngOfSize(1920, 1080), name: "a.png" })).status,
    ).toBe(403);
  });

  it("a bucket the user may not see: 404 on every read, as if the media did not exist", async () => {
    for (const url of reads()) {
      const response = await get(server.url, url, outsider);
      expect(response.status, url).toBe(404);
      expect(response.headers.get("content-disposition"), url).toBeNull();
    }
  });

  it("a new version of media in a bucket the user may not see is refused (404), though the upload goes to a bucket they may see", async () => {
    const { bucket, fields } = await fieldFor(server.db, "image", {}, {});
    const mine = await signedInUser(server.url, server.db, { buckets: [bucket.slug] });
    const before = await countMedia(server.db);
    await expectRefused(
      await upload(
        server.url,
        "image",
        mine.cookie,
        { ...fields, contentId: image.contentId },
        { data: await pngOfSize(1920, 1080), name: "takeover.png" },
      ),
      404,
      "No such media",
    );
    expect(await countMedia(server.db)).toBe(before);
    expect((await json(await get(server.url, `/api/v1/buckets/image/content/${image.contentId}/latest`, cookie)))._id).toBe(image._id);
    expect(readdirSync(server.media.storage.tmpDir)).toEqual([]);
  });
});
