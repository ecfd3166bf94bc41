import { readdirSync } from "node:fs";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createTestBucket, mediaRulesBucket, signedInUser } from "@tests/support/fixtures";
import { get } from "@tests/support/http";
import {
  jpegOfSize,
  pngOfSize,
  postCrop,
  putThumb,
  rotatedJpeg,
  upload,
  uploadStill,
  videoOf,
  webpOfSize,
} from "@tests/support/media-fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

type Content = Record<string, unknown> & {
  contentId: string;
  _id: string;
  status: string;
  url: string;
  originalImageVersionId: string | null;
  crop: { x: number; y: number; width: number; height: number } | null;
  dimensions: { width: number; height: number } | null;
  thumbs: Array<{ index?: number; filename?: string; isCustom?: boolean; url: string }>;
  thumb: { index: number } | { isCustom: true } | null;
  still: string | null;
  customStill?: { url: string; dimensions: { width: number; height: number }; smallerThanVideo: boolean } | null;
};

let server: TestServer;
let cookie: string;
let bucket: Bucket;

beforeAll(async () => {
  // No job runner at start: the video tests see stills that are not made yet, then start it themselves.
  server = await startTestServer({ env: { MEDIA_WORKERS: "0" } });
  bucket = await mediaRulesBucket(server.db, EDIT_RULES);
  ({ cookie } = await signedInUser(server.url, server.db));
});
afterAll(() => server.stop());

/** The default bucket's media fields allow crops and custom stills. */
const EDIT_RULES = { enableCrop: true, allowCustomStill: true };
const fields = (properties: Record<string, unknown> = EDIT_RULES, target: Bucket = bucket) => ({
  bucket: target.slug,
  uid: "u1",
  properties: JSON.stringify(properties),
});
const temporaryFiles = () => readdirSync(server.media.storage.tmpDir);
const storedFiles = () => readdirSync(server.media.storage.filesDir);
const mediaRows = async () => (await server.db.query<{ n: number }>("SELECT count(*)::int AS n FROM media")).rows[0]!.n;

async function json<T = Content>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

async function uploadedImage(
  data: Buffer,
  name = "photo.png",
  target: Bucket = bucket,
  rules: Record<string, unknown> = EDIT_RULES,
): Promise<Content> {
  return (await json<Content[]>(await upload(server.url, "image", cookie, fields(rules, target), { data, name })))[0]!;
}

async function expectRefused(response: Response, status: number, message: string | RegExp) {
  const body = await json<{ error: string }>(response, status);
  if (typeof message === "string") expect(body.error).toBe(message);
  else expect(body.error).toMatch(message);
}

async function servedImage(url: string) {
  const response = await get(server.url, url, cookie);
  expect(response.status).toBe(200);
  const bytes = Buffer.from(await response.arrayBuffer());
  return { response, bytes, metadata: await sharp(bytes).metadata() };
}

describe("image crop", () => {
  it("makes a new version of the same content from the original, with originalImageVersionId, the coordinates and the exact pixels", async () => {
    const png = await pngOfSize(1920, 1080);
    const original = await uploadedImage(png, "Zee.png");
    const before = await mediaRows();
    const cropped = await json(
      await postCrop(server.url, original.contentId, cookie, { coordinates: { x: 100, y: 50, width: 1280, height: 720 } }),
    );
    expect(cropped).toMatchObject({
      contentId: original.contentId,
      originalImageVersionId: original._id,
      crop: { x: 100, y: 50, width: 1280, height: 720 },
      dimensions: { width: 1280, height: 720 },
      status: "completed",
      mimetype: "image/png",
      originalFilename: "Zee.png",
    });
    expect(cropped._id).not.toBe(original._id);
    expect(await mediaRows()).toBe(before + 1);

    // The latest version is the crop; its pixels are exactly that area of the original.
    const latest = await json(await get(server.url, `/api/v1/buckets/image/content/${original.contentId}/latest`, cookie));
    expect(latest._id).toBe(cropped._id);
    const served = await servedImage(cropped.url);
    expect(served.metadata).toMatchObject({ format: "png", width: 1280, height: 720 });
    const expected = await sharp(png).extract({ left: 100, top: 50, width: 1280, height: 720 }).raw().toBuffer();
    expect((await sharp(served.bytes).raw().toBuffer()).equals(expected)).toBe(true);

    // The original stays readable by its version id (spec §7: …/image/content/contentId/{originalImageVersionId}).
    const originalContent = await json(
      await get(server.url, `/api/v1/buckets/image/content/contentId/${cropped.originalImageVersionId}`, cookie),
    );
    expect(originalContent).toMatchObject({ _id: original._id, dimensions: { width: 1920, height: 1080 }, originalImageVersionId: null });
    expect(temporaryFiles()).toEqual([]);
  });

  it("recrops from the original, never from the crop, whether named by contentId or by the crop's _id", async () => {
    const png = await pngOfSize(1920, 1080);
    const original = await uploadedImage(png);
    const first = await json(
      await postCrop(server.url, original.contentId, cookie, { coordinates: { x: 0, y: 0, width: 640, height: 360 } }),
    );
    // An area of the original that does not fit inside the first crop (640×360).
    const second = await json(
      await postCrop(server.url, original.contentId, cookie, { coordinates: { x: 1000, y: 500, width: 900, height: 500 } }),
    );
    expect(second).toMatchObject({
      contentId: original.contentId,
      originalImageVersionId: original._id,
      dimensions: { width: 900, height: 500 },
    });
    const third = await json(await postCrop(server.url, first._id, cookie, { coordinates: { x: 0, y: 0, width: 1920, height: 1080 } }));
    expect(third).toMatchObject({ originalImageVersionId: original._id, dimensions: { width: 1920, height: 1080 } });
    const served = await servedImage(`${second.url}?version=${second._id}`);
    const expected = await sharp(png).extract({ left: 1000, top: 500, width: 900, height: 500 }).raw().toBuffer();
    expect((await sharp(served.bytes).raw().toBuffer()).equals(expected)).toBe(true);
  });

  it("keeps the original's format and rounds fractional coordinates by edge", async () => {
    const original = await uploadedImage(await jpegOfSize(1920, 1080), "a.jpg");
    const cropped = await json(
      await postCrop(server.url, original.contentId, cookie, { coordinates: { x: 10.4, y: 20.6, width: 300.2, height: 199.9 } }),
    );
    // left 10, right round(310.6) = 311; top 21, bottom round(220.5) = 221
    expect(cropped).toMatchObject({
      crop: { x: 10, y: 21, width: 301, height: 200 },
      dimensions: { width: 301, height: 200 },
      mimetype: "image/jpeg",
    });
    expect((await servedImage(cropped.url)).metadata).toMatchObject({ format: "jpeg", width: 301, height: 200 });
  });

  it("crops in the image as shown: EXIF orientation applied", async () => {
    // Stored 1080×1920, shown 1920×1080 (orientation 6).
    const original = await uploadedImage(await rotatedJpeg(1080, 1920), "rotated.jpg");
    expect(original.dimensions).toEqual({ width: 1920, height: 1080 });
    const cropped = await json(
      await postCrop(server.url, original.contentId, cookie, { coordinates: { x: 0, y: 0, width: 1900, height: 100 } }),
    );
    expect((await servedImage(cropped.url)).metadata).toMatchObject({ width: 1900, height: 100 });
  });

  it.each([
    [{ maxWidthCrop: 1000 }, { width: 1200, height: 500 }, "Crop is too wide (1200px), maximum crop width: 1000px"],
    [{ maxHeightCrop: 400 }, { width: 1200, height: 500 }, "Crop is too high (500px), maximum crop height: 400px"],
    [{ minWidthCrop: 1300 }, { width: 1200, height: 500 }, "Crop is too narrow (1200px), minimum crop width: 1300px"],
    [{ minHeightCrop: 600 }, { width: 1200, height: 500 }, "Crop is not high enough (500px), minimum crop height: 600px"],
    [
      { minWidthCrop: "720p", minHeightCrop: "720p" },
      { width: 1200, height: 500 },
      "Crop is too narrow (1200px), minimum crop width: 1280px\nCrop is not high enough (500px), minimum crop height: 720px",
    ],
    [
      { maxWidthCrop: "VGA", maxHeightCrop: "800x400" },
      { width: 1200, height: 500 },
      "Crop is too wide (1200px), maximum crop width: 640px\nCrop is too high (500px), maximum crop height: 400px",
    ],
  ])("refuses crop bounds %j for %j with a clear 422", async (bounds, size, message) => {
    const property = { enableCrop: true, ...bounds };
    const original = await uploadedImage(await pngOfSize(1920, 1080), "photo.png", await mediaRulesBucket(server.db, property), property);
    const before = await mediaRows();
    const stored = storedFiles().length;
    await expectRefused(
      await postCrop(server.url, original._id, cookie, { coordinates: { x: 0, y: 0, ...size }, properties: property }),
      422,
      message,
    );
    expect(await mediaRows()).toBe(before);
    expect(storedFiles().length).toBe(stored);
    expect(temporaryFiles()).toEqual([]);
  });

  it("accepts a crop within the bounds, named resolutions included", async () => {
    const property = { enableCrop: true, minWidthCrop: "720p", maxWidthCrop: "HD", minHeightCrop: 720, maxHeightCrop: "1280x720" };
    const original = await uploadedImage(await pngOfSize(1920, 1080), "photo.png", await mediaRulesBucket(server.db, property), property);
    const cropped = await json(
      await postCrop(server.url, original.contentId, cookie, {
        coordinates: { x: 0, y: 0, width: 1280, height: 720 },
        properties: JSON.stringify(property),
      }),
    );
    expect(cropped.dimensions).toEqual({ width: 1280, height: 720 });
  });

  it("takes the crop bounds from the bucket schema's image field, and crops only fields with enableCrop or forceCrop (403)", async () => {
    const schemaBucket = await createTestBucket(server.db, {
      jsonSchema: {
        type: "object",
        properties: { photo: { _ref: "b-image", enableCrop: true, minWidthCrop: 1000 }, title: { type: "string" } },
      },
    });
    const original = await uploadedImage(await pngOfSize(1920, 1080), "p.png", schemaBucket, { enableCrop: true, minWidthCrop: 1000 });
    await expectRefused(
      await postCrop(server.url, original.contentId, cookie, { coordinates: { x: 0, y: 0, width: 800, height: 800 } }),
      422,
      "Crop is too narrow (800px), minimum crop width: 1000px",
    );
    await json(await postCrop(server.url, original.contentId, cookie, { coordinates: { x: 0, y: 0, width: 1000, height: 800 } }));

    const twoFields = await createTestBucket(server.db, {
      jsonSchema: {
        type: "object",
        properties: {
          a: { _ref: "b-image", forceCrop: true, minWidthCrop: 1000 },
          list: { type: "array", items: { _ref: "b-image", enableCrop: true, maxWidthCrop: 500 } },
        },
      },
    });
    const other = await uploadedImage(await pngOfSize(1920, 1080), "p.png", twoFields, {
      _ref: "b-image",
      enableCrop: true,
      maxWidthCrop: 500,
    });
    await expectRefused(
      await postCrop(server.url, other.contentId, cookie, { coordinates: { x: 0, y: 0, width: 800, height: 800 } }),
      400,
      /different rules: send the field's schema property in 'properties'/,
    );
    await expectRefused(
      await postCrop(server.url, other.contentId, cookie, {
        coordinates: { x: 0, y: 0, width: 800, height: 800 },
        properties: { enableCrop: true },
      }),
      400,
      /^The field 'properties' matches no image field of this bucket/,
    );
    await json(
      await postCrop(server.url, other.contentId, cookie, {
        coordinates: { x: 0, y: 0, width: 400, height: 400 },
        properties: { enableCrop: true, maxWidthCrop: 500 },
      }),
    );
    await json(
      await postCrop(server.url, other.contentId, cookie, {
        coordinates: { x: 0, y: 0, width: 1000, height: 400 },
        properties: { forceCrop: true, minWidthCrop: 1000 },
      }),
    );

    const noCrop = await mediaRulesBucket(server.db, { maxWidthCrop: 500 });
    const plain = await uploadedImage(await pngOfSize(1920, 1080), "p.png", noCrop, { maxWidthCrop: 500 });
    const before = await mediaRows();
    await expectRefused(
      await postCrop(server.url, plain.contentId, cookie, { coordinates: { x: 0, y: 0, width: 400, height: 400 } }),
      403,
      "This image field does not allow cropping: its schema property has no enableCrop.",
    );
    expect(await mediaRows()).toBe(before);
  });

  it.each([
    [
      { x: 1000, y: 0, width: 1000, height: 500 },
      "The crop area (1000×500px at 1000,0) lies outside the image: it must fit within 1920×1080px.",
    ],
    [
      { x: 0, y: 600, width: 1000, height: 500 },
      "The crop area (1000×500px at 0,600) lies outside the image: it must fit within 1920×1080px.",
    ],
    [
      { x: -10, y: 0, width: 100, height: 100 },
      "The crop area (100×100px at -10,0) lies outside the image: it must fit within 1920×1080px.",
    ],
    [{ x: 10, y: 10, width: 0, height: 100 }, "The crop area is empty (0×100px): choose an area of at least 1×1px."],
  ])("refuses coordinates %j outside the original (422)", async (coordinates, message) => {
    const original = await uploadedImage(await pngOfSize(1920, 1080));
    await expectRefused(await postCrop(server.url, original.contentId, cookie, { coordinates }), 422, message);
  });

  it("refuses malformed bodies and coordinates with 400", async () => {
    const original = await uploadedImage(await pngOfSize(1920, 1080));
    const id = original.contentId;
    await expectRefused(await postCrop(server.url, id, cookie, "{not json"), 400, /^The body is not valid JSON/);
    await expectRefused(await postCrop(server.url, id, cookie, "[1,2]"), 400, /^The body must be a JSON object/);
    await expectRefused(await postCrop(server.url, id, cookie, {}), 400, /^The crop coordinates are missing/);
    await expectRefused(await postCrop(server.url, id, cookie, { coordinates: [0, 0, 10, 10] }), 400, /^The crop coordinates are missing/);
    await expectRefused(
      await postCrop(server.url, id, cookie, { coordinates: { x: 0, y: 0, width: "100", height: 100 } }),
      400,
      /^The crop coordinate 'width' must be a number/,
    );
    await expectRefused(
      await postCrop(server.url, id, cookie, { coordinates: { x: 0, y: 0, width: 100 } }),
      400,
      /^The crop coordinate 'height' must be a number/,
    );
    await expectRefused(
      await postCrop(server.url, id, cookie, { coordinates: { x: 0, y: 0, width: 100, height: 100 }, properties: "[" }),
      400,
      "The field 'properties' must be a JSON object.",
    );
    await expectRefused(
      await postCrop(server.url, id, cookie, JSON.stringify({ coordinates: { x: 0, y: 0, width: 10, height: 10 } }), "text/plain"),
      400,
      /^Send the body as JSON/,
    );
    await expectRefused(
      await postCrop(server.url, id, cookie, { coordinates: { x: 0, y: 0, width: 10, height: 10 }, pad: "x".repeat(70 * 1024) }),
      413,
      /too large/,
    );
  });

  it("checks access like every media call: 401 signed out, 404 for a bucket the user may not see, for unknown ids and for non-images", async () => {
    const original = await uploadedImage(await pngOfSize(1920, 1080));
    const body = { coordinates: { x: 0, y: 0, width: 100, height: 100 } };
    const before = await mediaRows();
    await expectRefused(await postCrop(server.url, original.contentId, undefined, body), 401, "Sign in first");
    const other = await signedInUser(server.url, server.db, { buckets: ["some-other-bucket"] });
    await expectRefused(await postCrop(server.url, original.contentId, other.cookie, body), 404, "No such media");
    await expectRefused(await postCrop(server.url, original._id, other.cookie, body), 404, "No such media");
    await expectRefused(await postCrop(server.url, "00000000-0000-4000-8000-000000000000", cookie, body), 404, "No such media");
    await expectRefused(await postCrop(server.url, "not-a-uuid", cookie, body), 404, "No such media");
    const file = (
      await json<Content[]>(await upload(server.url, "file", cookie, fields(), { data: Buffer.from("a,b\n".repeat(400)), name: "t.csv" }))
    )[0]!;
    await expectRefused(await postCrop(server.url, file.contentId, cookie, body), 404, "No such media");
    expect(await mediaRows()).toBe(before + 1);
  });
});

describe("video thumb and custom still", () => {
  let video: Content;

  async function latest(): Promise<Content> {
    return json(await get(server.url, `/api/v1/buckets/video/content/${video.contentId}/latest`, cookie));
  }

  beforeAll(async () => {
    video = (
      await json<Content[]>(
        await upload(server.url, "video", cookie, fields(), {
          data: videoOf({ width: 1280, height: 720, fps: 25, seconds: 2 }),
          name: "clip.mp4",
        }),
      )
    )[0]!;
  });

  it("refuses a still index while the still-creation job has not made the stills (409), then selects one once they exist", async () => {
    expect(video.status).toBe("processing");
    await expectRefused(
      await putThumb(server.url, video.contentId, cookie, { thumb: 1 }),
      409,
      "The stills of this video are not ready yet: choose a thumbnail when the video has been processed.",
    );
    await expectRefused(await putThumb(server.url, video.contentId, cookie, { thumb: { isCustom: true } }), 409, /no custom still yet/);

    server.media.jobs.start();
    await expect.poll(async () => (await latest()).status, { timeout: 90_000, interval: 250 }).toBe("completed");
    const done = await latest();
    const count = done.thumbs.length;
    expect(count).toBeGreaterThanOrEqual(3);
    expect(done.thumb).toEqual({ index: 0 });

    const updated = await json(await putThumb(server.url, video.contentId, cookie, { thumb: 2 }));
    expect(updated).toMatchObject({
      contentId: video.contentId,
      _id: video._id,
      thumb: { index: 2 },
      still: `/api/v1/still/${video.contentId}/2`,
    });
    expect((await latest()).thumb).toEqual({ index: 2 });
    // {index} and the version's _id are accepted too.
    expect(await json(await putThumb(server.url, video._id, cookie, { thumb: { index: 1 } }))).toMatchObject({
      thumb: { index: 1 },
      still: `/api/v1/still/${video.contentId}/1`,
    });

    await expectRefused(
      await putThumb(server.url, video.contentId, cookie, { thumb: count }),
      422,
      `There is no still ${count}: this video has ${count} stills, numbered 0 to ${count - 1}.`,
    );
    for (const thumb of [-1, 1.5, "2", null, { index: "1" }, { isCustom: "yes" }]) {
      await expectRefused(await putThumb(server.url, video.contentId, cookie, { thumb }), 400, /^The thumb is missing or malformed/);
    }
    await expectRefused(await putThumb(server.url, video.contentId, cookie, "{"), 400, /^The body is not valid JSON/);
    expect((await latest()).thumb).toEqual({ index: 1 });

    // The still is served, by index.
    const still = await get(server.url, `/api/v1/still/${video.contentId}/1`, cookie);
    expect(still.status).toBe(200);
    expect(still.headers.get("content-type")).toBe("image/jpeg");
    expect((await sharp(Buffer.from(await still.arrayBuffer())).metadata()).width).toBe(1280);
  }, 120_000);

  it("checks access for the thumb: 401 signed out, 404 for a hidden bucket and for a non-video", async () => {
    await expectRefused(await putThumb(server.url, video.contentId, undefined, { thumb: 0 }), 401, "Sign in first");
    const other = await signedInUser(server.url, server.db, { buckets: ["some-other-bucket"] });
    await expectRefused(await putThumb(server.url, video.contentId, other.cookie, { thumb: 0 }), 404, "No such media");
    const image = await uploadedImage(await pngOfSize(1920, 1080));
    await expectRefused(await putThumb(server.url, image.contentId, cookie, { thumb: 0 }), 404, "No such media");
  });

  it("stores a PNG custom still without changing the thumb, serves it, and selects it with the answer's thumb", async () => {
    await expect.poll(async () => (await latest()).status, { timeout: 90_000, interval: 250 }).toBe("completed");
    const png = await pngOfSize(1280, 720);
    const answer = await json<{
      thumb: { isCustom: true; url: string };
      still: string;
      smallerThanVideo: boolean;
      dimensions: unknown;
      video: unknown;
    }>(await uploadStill(server.url, video.contentId, cookie, { data: png, name: "eigen still.png", type: "image/png" }));
    expect(answer).toMatchObject({
      thumb: { isCustom: true, filename: "custom" },
      smallerThanVideo: false,
      dimensions: { width: 1280, height: 720 },
      video: { width: 1280, height: 720 },
    });
    expect(answer.thumb.url).toMatch(new RegExp(`^/api/v1/still/${video.contentId}/custom\\?v=`));

    const content = await latest();
    expect(content.thumb).not.toEqual({ isCustom: true });
    expect(content.customStill).toEqual({ url: answer.thumb.url, dimensions: { width: 1280, height: 720 }, smallerThanVideo: false });
    expect(content.thumbs.at(-1)).toEqual({ filename: "custom", isCustom: true, url: answer.thumb.url });

    for (const path of [
      answer.thumb.url,
      `/api/v1/still/${video.contentId}/0?filename=custom`,
      `/api/v1/still/${video.contentId}/custom`,
    ]) {
      const served = await get(server.url, path, cookie);
      expect(served.status, path).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/png");
      expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    }
    expect((await get(server.url, `/api/v1/still/${video.contentId}/0?filename=../../etc/passwd`, cookie)).status).toBe(404);
    expect((await get(server.url, `/api/v1/still/${video.contentId}/abc`, cookie)).status).toBe(404);
    expect((await get(server.url, `/api/v1/still/${video.contentId}/custom`)).status).toBe(401);

    const selected = await json(await putThumb(server.url, video.contentId, cookie, { thumb: answer.thumb }));
    expect(selected).toMatchObject({ thumb: { isCustom: true }, still: answer.thumb.url });
    expect((await latest()).still).toBe(answer.thumb.url);
  });

  it("flags a custom still smaller than the video, and a new one replaces the old file", async () => {
    const keyNow = async () =>
      (await server.db.query<{ key: string }>("SELECT details->>'customStillKey' AS key FROM media WHERE id = $1", [video._id])).rows[0]!
        .key;
    const previousKey = await keyNow();
    expect(storedFiles()).toContain(previousKey);
    const answer = await json<{ smallerThanVideo: boolean; still: string; dimensions: unknown }>(
      await uploadStill(server.url, video.contentId, cookie, { data: await webpOfSize(640, 360), name: "small.webp" }),
    );
    expect(answer).toMatchObject({ smallerThanVideo: true, dimensions: { width: 640, height: 360 } });
    expect((await latest()).customStill).toMatchObject({ smallerThanVideo: true, dimensions: { width: 640, height: 360 } });
    const served = await get(server.url, answer.still, cookie);
    expect(served.headers.get("content-type")).toBe("image/webp");
    // The replaced file is deleted: one custom still per video.
    const key = await keyNow();
    expect(key).not.toBe(previousKey);
    expect(storedFiles()).toContain(key);
    expect(storedFiles()).not.toContain(previousKey);

    const jpeg = await json<{ smallerThanVideo: boolean }>(
      await uploadStill(server.url, video.contentId, cookie, { data: await jpegOfSize(1920, 1080), name: "big.jpg" }),
    );
    expect(jpeg.smallerThanVideo).toBe(false);
  });

  it("refuses custom stills that are not JPEG, PNG or WebP by content (415), empty ones and several files", async () => {
    const message = "A custom still must be a JPEG, PNG or WebP image.";
    const svg = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720"><script>alert(1)</script>${" ".repeat(2000)}</svg>`,
    );
    await expectRefused(
      await uploadStill(server.url, video.contentId, cookie, { data: svg, name: "still.svg", type: "image/svg+xml" }),
      415,
      message,
    );
    const html = Buffer.from(`<!doctype html><html><body><script>alert(1)</script>${"x".repeat(2000)}</body></html>`);
    await expectRefused(
      await uploadStill(server.url, video.contentId, cookie, { data: html, name: "still.png", type: "image/png" }),
      415,
      message,
    );
    const gif = await sharp({ create: { width: 1280, height: 720, channels: 3, background: "#336699" } })
      .gif()
      .toBuffer();
    await expectRefused(await uploadStill(server.url, video.contentId, cookie, { data: gif, name: "still.png" }), 415, message);
    await expectRefused(
      await uploadStill(server.url, video.contentId, cookie, { data: Buffer.alloc(0), name: "empty.png" }),
      400,
      "The file is empty.",
    );
    const png = await pngOfSize(1280, 720);
    await expectRefused(
      await uploadStill(server.url, video.contentId, cookie, { data: png, name: "a.png" }, { data: png, name: "b.png" }),
      400,
      /one file/,
    );
    await expectRefused(await uploadStill(server.url, video.contentId, cookie), 400, "Send exactly one file, in the field named 'file'.");
    expect(temporaryFiles()).toEqual([]);
  });
});

// Refusals that must store no file, on a server of their own: no job runner, so the only files in its media
// directory are the ones these tests upload (a runner would be writing other videos' stills meanwhile).
describe("custom still refusals store nothing", () => {
  let own: TestServer;
  let ownCookie: string;
  let ownBucket: Bucket;
  let video: Content;
  const storedFiles = () => readdirSync(own.media.storage.filesDir);
  const temporaryFiles = () => readdirSync(own.media.storage.tmpDir);

  beforeAll(async () => {
    own = await startTestServer({ env: { MEDIA_WORKERS: "0" } });
    ownBucket = await mediaRulesBucket(own.db, EDIT_RULES);
    ({ cookie: ownCookie } = await signedInUser(own.url, own.db));
    video = (
      await json<Content[]>(
        await upload(own.url, "video", ownCookie, fields(EDIT_RULES, ownBucket), {
          data: videoOf({ width: 1280, height: 720, fps: 25, seconds: 1 }),
          name: "clip.mp4",
        }),
      )
    )[0]!;
  });
  afterAll(() => own.stop());

  it("takes custom stills only for video fields with allowCustomStill (403)", async () => {
    const noStills = await mediaRulesBucket(own.db, { maxFps: 60 });
    const plainVideo = (
      await json<Content[]>(
        await upload(own.url, "video", ownCookie, fields({ maxFps: 60 }, noStills), {
          data: videoOf({ width: 1280, height: 720, fps: 25, seconds: 1 }),
          name: "clip.mp4",
        }),
      )
    )[0]!;
    const stored = storedFiles().length;
    await expectRefused(
      await uploadStill(own.url, plainVideo.contentId, ownCookie, { data: await pngOfSize(1280, 720), name: "a.png" }),
      403,
      "This video field does not allow custom stills: its schema property has no allowCustomStill.",
    );
    expect(storedFiles().length).toBe(stored);
    await expect.poll(() => temporaryFiles(), { timeout: 5000 }).toEqual([]);
  });

  it("checks access for the custom still: 401 signed out, 404 for a hidden bucket and for a non-video", async () => {
    const png = await pngOfSize(1280, 720);
    const stored = storedFiles().length;
    await expectRefused(await uploadStill(own.url, video.contentId, undefined, { data: png, name: "a.png" }), 401, "Sign in first");
    const other = await signedInUser(own.url, own.db, { buckets: ["some-other-bucket"] });
    await expectRefused(await uploadStill(own.url, video.contentId, other.cookie, { data: png, name: "a.png" }), 404, "No such media");
    expect((await get(own.url, `/api/v1/still/${video.contentId}/0`, other.cookie)).status).toBe(404);
    const image = (
      await json<Content[]>(
        await upload(own.url, "image", ownCookie, fields(EDIT_RULES, ownBucket), { data: await pngOfSize(1920, 1080), name: "photo.png" }),
      )
    )[0]!;
    const afterImage = storedFiles().length;
    expect(afterImage).toBe(stored + 1);
    await expectRefused(await uploadStill(own.url, image.contentId, ownCookie, { data: png, name: "a.png" }), 404, "No such media");
    expect(storedFiles().length).toBe(afterImage);
    await expect.poll(() => temporaryFiles(), { timeout: 5000 }).toEqual([]);
  });
});
