import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createTestBucket, signedInUser } from "@tests/support/fixtures";
import { get, sameOrigin } from "@tests/support/http";
import { pngOfSize, postCrop, upload, videoOf } from "@tests/support/media-fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The media items of 'An editor that feels finished' over real HTTP and a real database: crop bounds that fall
 * back to the field's image bounds (refused on the server), a refused file's message under its field after the
 * no-JavaScript 'Upload' button, and crop and thumbnail choice without JavaScript inside the edit form.
 */

let server: TestServer;
let cookie: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ cookie } = await signedInUser(server.url, server.db));
});
afterAll(() => server.stop());

type Content = {
  contentId: string;
  _id: string;
  status: string;
  crop: unknown;
  dimensions: { width: number; height: number } | null;
  thumb: unknown;
};

async function json<T>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

const bucketWith = (properties: Record<string, unknown>) =>
  createTestBucket(server.db, {
    jsonSchema: { type: "object", properties: { name: { type: "string", title: "Name" }, ...properties } },
    locales: ["en"],
  });

async function uploaded(
  bucket: Bucket,
  kind: "image" | "video",
  property: Record<string, unknown>,
  data: Buffer,
  name: string,
): Promise<Content> {
  const answer = await upload(
    server.url,
    kind,
    cookie,
    { bucket: bucket.slug, uid: "u1", properties: JSON.stringify(property) },
    { data, name },
  );
  return (await json<Content[]>(answer))[0]!;
}

const latest = async (kind: "image" | "video", contentId: string) =>
  json<Content>(await get(server.url, `/api/v1/buckets/${kind}/content/${contentId}/latest`, cookie));

/** The edit form's post as a browser without JavaScript sends it (multipart: the form has media fields). */
function postEditForm(bucket: Bucket, parts: Array<[string, string | Blob, string?]>) {
  const form = new FormData();
  for (const [name, value, filename] of parts) {
    if (typeof value === "string") form.append(name, value);
    else form.append(name, value, filename);
  }
  return fetch(`${server.url}/b/${bucket.slug}/new`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: cookie, ...sameOrigin(server.url) },
    body: form,
  });
}

/** The HTML of one field's box (from its data-field to the next field), where its messages show. */
function fieldHtml(html: string, field: string): string {
  const start = html.indexOf(`data-field="${field}"`);
  expect(start, `field ${field}`).toBeGreaterThan(-1);
  // The last field ends with the form: the history panel after it has radio buttons of its own.
  const next = html.indexOf("data-field=", start + 12);
  const formEnd = html.indexOf("</form>", start);
  const ends = [next, formEnd].filter((index) => index !== -1);
  return html.slice(start, ends.length ? Math.min(...ends) : undefined);
}

const decode = (html: string) =>
  html
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
const keptName = (html: string) => /<input[^>]*name="name"[^>]*>/.exec(html)?.[0].match(/value="([^"]*)"/)?.[1];

describe("crop bounds on the server", () => {
  it("refuses a crop outside the field's image bounds when it gives no crop bounds (422 with the catalogue's message)", async () => {
    const property = { _ref: "b-image", enableCrop: true, minWidth: 1200, minHeight: 700, maxWidth: 1800, maxHeight: 1000 };
    const bucket = await bucketWith({ photo: { type: "string", title: "Photo", ...property } });
    const original = await uploaded(bucket, "image", property, await pngOfSize(1800, 1000), "wide.png");
    const small = await json<{ error: string }>(
      await postCrop(server.url, original.contentId, cookie, {
        coordinates: { x: 0, y: 0, width: 1000, height: 600 },
        properties: property,
      }),
      422,
    );
    expect(small.error).toBe(
      "Crop is too narrow (1000px), minimum crop width: 1200px\nCrop is not high enough (600px), minimum crop height: 700px",
    );
    const cropped = await json<Content>(
      await postCrop(server.url, original.contentId, cookie, {
        coordinates: { x: 100, y: 50, width: 1200, height: 700 },
        properties: property,
      }),
    );
    expect(cropped.dimensions).toEqual({ width: 1200, height: 700 });
  });

  it("takes the crop bounds alone when the field gives any, and crops freely without bounds", async () => {
    const own = { _ref: "b-image", enableCrop: true, minWidth: 1600, minWidthCrop: 400 };
    const ownBucket = await bucketWith({ photo: { type: "string", title: "Photo", ...own } });
    const image = await uploaded(ownBucket, "image", own, await pngOfSize(1920, 1080), "own.png");
    expect(
      (await json<Content>(await postCrop(server.url, image.contentId, cookie, { coordinates: { x: 0, y: 0, width: 400, height: 300 } })))
        .dimensions,
    ).toEqual({ width: 400, height: 300 });
    const refused = await json<{ error: string }>(
      await postCrop(server.url, image.contentId, cookie, { coordinates: { x: 0, y: 0, width: 399, height: 300 } }),
      422,
    );
    expect(refused.error).toBe("Crop is too narrow (399px), minimum crop width: 400px");

    const free = { _ref: "b-image", enableCrop: true };
    const freeBucket = await bucketWith({ photo: { type: "string", title: "Photo", ...free } });
    const freeImage = await uploaded(freeBucket, "image", free, await pngOfSize(1920, 1080), "free.png");
    expect(
      (await json<Content>(await postCrop(server.url, freeImage.contentId, cookie, { coordinates: { x: 0, y: 0, width: 10, height: 10 } })))
        .dimensions,
    ).toEqual({ width: 10, height: 10 });
  });
});

describe("without JavaScript", () => {
  it("'Upload' with a refused file answers 422 with the message under that field and the form's other input kept", async () => {
    const bucket = await bucketWith({ photo: { type: "string", title: "Photo", _ref: "b-image", minWidth: "HD", minHeight: "HD" } });
    const response = await postEditForm(bucket, [
      ["name", "Kept while uploading"],
      ["__media_upload", "photo"],
      ["__media_file.photo", new Blob([new Uint8Array(await pngOfSize(1000, 700))], { type: "image/png" }), "small.png"],
    ]);
    expect(response.status).toBe(422);
    const html = decode(await response.text());
    expect(fieldHtml(html, "photo")).toContain("Image is too narrow (1000px), minimum width: 1920px");
    expect(fieldHtml(html, "photo")).toContain("Image is not high enough (700px), minimum height: 1080px");
    expect(fieldHtml(html, "photo")).toMatch(/class="field-error"/);
    expect(keptName(html)).toBe("Kept while uploading");
  });

  it("crops from x, y, width and height inputs within the form, refusing what the field's bounds refuse, the input kept", async () => {
    const property = { _ref: "b-image", enableCrop: true, minWidthCrop: 800, minHeightCrop: 450 };
    const bucket = await bucketWith({ photo: { type: "string", title: "Photo", ...property } });
    const image = await uploaded(bucket, "image", property, await pngOfSize(1920, 1080), "harbour.png");
    const crop = (x: string, y: string, width: string, height: string): Array<[string, string]> => [
      ["name", "Kept while cropping"],
      ["photo", image.contentId],
      ["__media_edit.crop.x.photo", x],
      ["__media_edit.crop.y.photo", y],
      ["__media_edit.crop.width.photo", width],
      ["__media_edit.crop.height.photo", height],
      ["__media_crop", "photo"],
    ];

    const refused = await postEditForm(bucket, crop("0", "0", "640", "450"));
    expect(refused.status).toBe(422);
    const refusedHtml = decode(await refused.text());
    expect(fieldHtml(refusedHtml, "photo")).toContain("Crop is too narrow (640px), minimum crop width: 800px");
    expect(keptName(refusedHtml)).toBe("Kept while cropping");
    expect((await latest("image", image.contentId))._id).toBe(image._id);

    const notWhole = await postEditForm(bucket, crop("0", "0", "800.5", "abc"));
    expect(notWhole.status).toBe(422);
    expect(fieldHtml(decode(await notWhole.text()), "photo")).toContain("Enter the crop area in whole pixels: x, y, width and height.");

    const outside = await postEditForm(bucket, crop("1500", "0", "800", "450"));
    expect(outside.status).toBe(422);
    expect(fieldHtml(decode(await outside.text()), "photo")).toContain(
      "The crop area (800×450px at 1500,0) lies outside the image: it must fit within 1920×1080px.",
    );

    const done = await postEditForm(bucket, crop("100", "60", "960", "540"));
    expect(done.status).toBe(200);
    const doneHtml = decode(await done.text());
    expect(keptName(doneHtml)).toBe("Kept while cropping");
    expect(fieldHtml(doneHtml, "photo")).not.toMatch(/class="field-error"/);
    // Not saved: the document is not made; the image has a new version cropped as asked.
    expect(await latest("image", image.contentId)).toMatchObject({
      crop: { x: 100, y: 60, width: 960, height: 540 },
      dimensions: { width: 960, height: 540 },
    });
  });

  it("renders the crop inputs with the bounds and the thumbnail radios on the saved document's page", async () => {
    const property = { _ref: "b-image", enableCrop: true, minWidthCrop: 800, maxHeightCrop: 900 };
    const bucket = await bucketWith({ photo: { type: "string", title: "Photo", ...property } });
    const image = await uploaded(bucket, "image", property, await pngOfSize(1920, 1080), "harbour.png");
    const saved = await postEditForm(bucket, [
      ["name", "Saved"],
      ["photo", image.contentId],
    ]);
    expect(saved.status).toBe(302);
    const page = decode(await (await get(server.url, saved.headers.get("location")!, cookie)).text());
    const box = fieldHtml(page, "photo");
    for (const axis of ["x", "y", "width", "height"])
      expect(box).toMatch(
        new RegExp(
          `<input[^>]*name="__media_edit\\.crop\\.${axis}\\.photo"[^>]*type="number"|<input[^>]*type="number"[^>]*name="__media_edit\\.crop\\.${axis}\\.photo"`,
        ),
      );
    expect(box).toContain("Minimum width: 800px");
    expect(box).toContain("Maximum height: 900px");
    expect(box).toMatch(/<button(?=[^>]*name="__media_crop")(?=[^>]*value="photo")[^>]*>/);
  });

  it("chooses the thumbnail from radio buttons within the form; a post without a choice is refused under the field", async () => {
    const property = { _ref: "b-video", minWidth: 320, minHeight: 240 };
    const bucket = await bucketWith({ clip: { type: "string", title: "Clip", ...property } });
    const video = await uploaded(bucket, "video", property, videoOf({ width: 320, height: 240, fps: 25, seconds: 4 }), "clip.mp4");
    await expect.poll(async () => (await latest("video", video.contentId)).status, { timeout: 90_000, interval: 500 }).toBe("completed");
    expect((await latest("video", video.contentId)).thumb).toEqual({ index: 0 });

    const saved = await postEditForm(bucket, [
      ["name", "With a clip"],
      ["clip", video.contentId],
    ]);
    expect(saved.status).toBe(302);
    const page = decode(await (await get(server.url, saved.headers.get("location")!, cookie)).text());
    const radios = [...fieldHtml(page, "clip").matchAll(/<input[^>]*type="radio"[^>]*>/g)].map((match) => match[0]);
    expect(radios.length).toBeGreaterThan(1);
    expect(radios.every((radio) => radio.includes('name="__media_edit.thumb.clip"'))).toBe(true);
    expect(radios.filter((radio) => /\bchecked\b/.test(radio))).toHaveLength(1);

    const none = await postEditForm(bucket, [
      ["name", "Kept while choosing"],
      ["clip", video.contentId],
      ["__media_thumb", "clip"],
    ]);
    expect(none.status).toBe(422);
    const noneHtml = decode(await none.text());
    expect(fieldHtml(noneHtml, "clip")).toContain("Choose a still for the thumbnail.");
    expect(keptName(noneHtml)).toBe("Kept while choosing");

    const chosen = await postEditForm(bucket, [
      ["name", "Kept while choosing"],
      ["clip", video.contentId],
      ["__media_edit.thumb.clip", "2"],
      ["__media_thumb", "clip"],
    ]);
    expect(chosen.status).toBe(200);
    expect(keptName(decode(await chosen.text()))).toBe("Kept while choosing");
    expect((await latest("video", video.contentId)).thumb).toEqual({ index: 2 });
  });
});
