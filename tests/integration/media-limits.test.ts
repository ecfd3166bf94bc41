import { readdirSync, rmSync, statSync } from "node:fs";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upload, videoOf } from "@tests/support/media-fixtures";
import type { TestServer } from "@tests/support/server";
import {
  MiB,
  MAX_IMAGE_BYTES,
  MAX_VIDEO_BYTES,
  type Content,
  fieldFor,
  uploaded,
  expectRefused,
  padded,
  faststartVideo,
  streamUpload,
  countMedia,
  startMediaServer,
} from "@tests/support/media-server";

/*
 * Every media size limit at its boundary, enforced while the body streams, and the video messages of
 * spec §5 the other tests leave out (maximum width and height, whose wording the spec leaves open).
 */

/** One server for the tests that need no job to run: MEDIA_WORKERS=0. */
let server: TestServer;
let cookie: string;
beforeAll(async () => {
  ({ server, cookie } = await startMediaServer());
});
afterAll(() => server.stop());
const temporaryFiles = () => readdirSync(server.media.storage.tmpDir);

describe("size limits, at the boundary, enforced while streaming", () => {
  it("images: 1024 bytes is the minimum, 40 MB the maximum (exactly 40 MB accepted, one byte more 413)", async () => {
    const { fields } = await fieldFor(server.db, "image");
    // A one-colour palette HD PNG is a few hundred bytes: padded after its IEND, it is a readable image of any size.
    const png = await sharp({ create: { width: 1920, height: 1080, channels: 3, background: "#204060" } })
      .png({ palette: true, colours: 2, compressionLevel: 9 })
      .toBuffer();
    expect(png.length).toBeLessThan(1023);
    await expectRefused(
      await upload(server.url, "image", cookie, fields, { data: padded(png, 1023), name: "a.png" }),
      422,
      "The file is too small (1023 bytes): the minimum is 1 kB.",
    );
    expect((await uploaded(await upload(server.url, "image", cookie, fields, { data: padded(png, 1024), name: "a.png" }))).size).toBe(1024);

    const before = await countMedia(server.db);
    const big = await uploaded(await upload(server.url, "image", cookie, fields, { data: padded(png, MAX_IMAGE_BYTES), name: "big.png" }));
    expect(big).toMatchObject({ size: MAX_IMAGE_BYTES, dimensions: { width: 1920, height: 1080 } });
    await expectRefused(
      await upload(server.url, "image", cookie, fields, { data: padded(png, MAX_IMAGE_BYTES + 1), name: "big.png" }),
      413,
      "The file is too large: the maximum is 40 MB.",
    );
    expect(await countMedia(server.db)).toBe(before + 1);
    expect(temporaryFiles()).toEqual([]);
  });

  it("files: minFilesize and maxFilesize at their boundaries, zero bytes, and the 1024-byte floor under a smaller minFilesize", async () => {
    const { fields } = await fieldFor(server.db, "file", { minFilesize: 5000, maxFilesize: 6000 });
    const text = (size: number) => ({ data: Buffer.alloc(size, 0x61), name: "notes.txt" });
    await expectRefused(
      await upload(server.url, "file", cookie, fields, text(4999)),
      422,
      "The file is too small (4999 bytes): the minimum is 5000 bytes.",
    );
    expect((await uploaded(await upload(server.url, "file", cookie, fields, text(5000)))).size).toBe(5000);
    expect((await uploaded(await upload(server.url, "file", cookie, fields, text(6000)))).size).toBe(6000);
    await expectRefused(
      await upload(server.url, "file", cookie, fields, text(6001)),
      413,
      "The file is too large: the maximum is 5.86 kB.",
    );

    // Zero bytes is its own answer, for every kind.
    await expectRefused(
      await upload(server.url, "file", cookie, fields, { data: Buffer.alloc(0), name: "empty.txt" }),
      400,
      "The file is empty.",
    );
    const video = await fieldFor(server.db, "video");
    await expectRefused(
      await upload(server.url, "video", cookie, video.fields, { data: Buffer.alloc(0), name: "empty.mp4" }),
      400,
      "The file is empty.",
    );

    const floor = await fieldFor(server.db, "file", { minFilesize: 10 });
    await expectRefused(
      await upload(server.url, "file", cookie, floor.fields, text(1023)),
      422,
      "The file is too small (1023 bytes): the minimum is 1 kB.",
    );
    expect((await uploaded(await upload(server.url, "file", cookie, floor.fields, text(1024)))).size).toBe(1024);
    expect(temporaryFiles()).toEqual([]);
  });

  it("videos: 1 GB is the maximum, cut off while streaming (413 before the body ends), nothing kept", async () => {
    const { fields } = await fieldFor(server.db, "video");
    const before = await countMedia(server.db);
    // A body without end: the answer can only come from the server cutting it off at the limit.
    const result = await streamUpload(server.url, "video", cookie, fields, {
      head: faststartVideo(1280, 720, 25, 1),
      filename: "endless.mp4",
    }).done;
    expect(result.status, result.body).toBe(413);
    expect(JSON.parse(result.body)).toEqual({ error: "The file is too large: the maximum is 1 GB." });
    expect(result.sent).toBeGreaterThan(MAX_VIDEO_BYTES);
    // Not the whole body (it has no end); the overshoot is what the server drains while it deletes the 1 GB
    // partial file before it answers (100–250 MB measured on a loaded machine).
    expect(result.sent).toBeLessThan(MAX_VIDEO_BYTES + 512 * MiB);
    await expect.poll(() => temporaryFiles(), { timeout: 5000 }).toEqual([]);
    expect(await countMedia(server.db)).toBe(before);
  }, 60_000);

  it("videos: exactly 1 GB is accepted (a real MP4 followed by padding)", async () => {
    const { fields } = await fieldFor(server.db, "video");
    const result = await streamUpload(server.url, "video", cookie, fields, {
      head: faststartVideo(1280, 720, 25, 1),
      size: MAX_VIDEO_BYTES,
      filename: "exact.mp4",
    }).done;
    expect(result.status, result.body).toBe(200);
    const [content] = JSON.parse(result.body) as Content[];
    expect(content).toMatchObject({ size: MAX_VIDEO_BYTES, dimensions: { width: 1280, height: 720 }, originalFilename: "exact.mp4" });
    // The stored copy is no longer needed: the disk space goes back at once.
    const { rows } = await server.db.query<{ key: string }>("SELECT storage_key AS key FROM media WHERE id = $1", [content!._id]);
    expect(statSync(server.media.storage.pathOf(rows[0]!.key)).size).toBe(MAX_VIDEO_BYTES);
    rmSync(server.media.storage.pathOf(rows[0]!.key));
    expect(temporaryFiles()).toEqual([]);
  }, 60_000);

  it("refuses too many form fields and a form field over 64 KiB (413), keeping nothing", async () => {
    const { fields } = await fieldFor(server.db, "file");
    const data = { data: Buffer.alloc(2000, 0x61), name: "a.txt" };
    const many = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`extra${i}`, "x"]));
    await expectRefused(
      await upload(server.url, "file", cookie, { ...fields, ...many }, data),
      413,
      "The upload has too many form fields.",
    );
    await expectRefused(
      await upload(server.url, "file", cookie, { ...fields, uid: "u".repeat(64 * 1024 + 1) }, data),
      413,
      "The form field 'uid' is too long.",
    );
    expect(temporaryFiles()).toEqual([]);
  });
});

describe("spec §5 video messages the other tests leave out", () => {
  it.each([
    [{ maxWidth: 1000 }, [1280, 720], "Video width is bigger than the maximum width of 1000px"],
    [{ maxHeight: 700 }, [1280, 720], "Video height is bigger than the maximum height of 700px"],
    [{ minHeight: 1000, minWidth: 1280 }, [1280, 720], "Video height is smaller than the minimum height of 1000px"],
    [
      { maxWidth: "VGA", maxHeight: "VGA" },
      [1280, 720],
      "Video width is bigger than the maximum width of 640px\nVideo height is bigger than the maximum height of 480px",
    ],
    // The default maximum is 4K (3840×2160).
    [{}, [3856, 2176], "Video width is bigger than the maximum width of 3840px\nVideo height is bigger than the maximum height of 2160px"],
  ])("bounds %j on a %j video", async (rules, [width, height], message) => {
    const { fields } = await fieldFor(server.db, "video", rules);
    const data = videoOf({ width: width!, height: height!, fps: 5, seconds: 1 });
    await expectRefused(await upload(server.url, "video", cookie, fields, { data, name: "v.mp4" }), 422, message);
  });
});
