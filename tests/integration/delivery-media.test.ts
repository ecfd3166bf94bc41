import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createPublished } from "@tests/support/publishing";
import { signedMediaUrl, urlExpiry } from "@server/delivery/media";
import { insertMedia, type MediaRow } from "@server/media/store";
import type { DeliveryMedia } from "@core/delivery/shape";
import { createTestBucket } from "@tests/support/fixtures";
import { deliver, deliveryClient, expectProblem, json, type Doc } from "@tests/support/delivery";
import { jpegOfSize, pngOfSize } from "@tests/support/media-fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * Media in the delivery API: a media reference always comes back as an object (renditions, stills, the chosen
 * thumb, size and type) with signed, expiring URLs that load without a token; an expired or forged signature is
 * 403, a media item of a bucket the client does not read comes with the document that uses it, media that is gone
 * is {contentId, missing: true}.
 */

let server: TestServer;
let bucket: Bucket;
let hidden: Bucket;
let token: string;
let image: MediaRow;
let video: MediaRow;
let secretImage: MediaRow;
let documentId: string;
const files: Record<string, Buffer> = {};

/** A media version whose files are written into the server's storage under fresh keys. */
async function storedMedia(
  target: Bucket,
  kind: "image" | "video",
  bytes: Buffer,
  details: Record<string, unknown> = {},
  facts: Partial<MediaRow> = {},
) {
  const key = `${randomUUID()}.${kind === "image" ? "png" : "mp4"}`;
  writeFileSync(server.media.storage.pathOf(key), bytes);
  files[key] = bytes;
  return insertMedia(server.db, {
    kind,
    bucketId: target.id,
    storageKey: key,
    originalFilename: kind === "image" ? "poster.png" : "clip.mov",
    mimetype: kind === "image" ? "image/png" : "video/quicktime",
    size: bytes.length,
    width: facts.width ?? 64,
    height: facts.height ?? 48,
    details,
    createdBy: null,
  });
}

function storedFile(bytes: Buffer, ext: string) {
  const key = `${randomUUID()}.${ext}`;
  writeFileSync(server.media.storage.pathOf(key), bytes);
  files[key] = bytes;
  return key;
}

beforeAll(async () => {
  server = await startTestServer({ env: { MEDIA_WORKERS: "0" } });
  bucket = await createTestBucket(server.db, {
    jsonSchema: {
      type: "object",
      properties: {
        title: { type: "string" },
        poster: { type: "string", _ref: "b-image" },
        clip: { type: "string", _ref: "b-video" },
        secret: { type: "string", _ref: "b-image" },
        gone: { type: "string", _ref: "b-image" },
        gallery: { type: "array", items: { type: "string", _ref: "b-image" } },
      },
    },
  });
  hidden = await createTestBucket(server.db);
  image = await storedMedia(bucket, "image", await pngOfSize(64, 48));
  const stills = [storedFile(await jpegOfSize(32, 18), "jpg"), storedFile(await jpegOfSize(32, 18), "jpg")];
  const rendition = storedFile(Buffer.from("not really an mp4, but bytes to serve"), "mp4");
  video = await storedMedia(
    bucket,
    "video",
    Buffer.from("a video's original bytes"),
    { renditionKey: rendition, stillKeys: stills, thumb: { index: 1 }, duration: 2 },
    { width: 640, height: 360 },
  );
  secretImage = await storedMedia(hidden, "image", await pngOfSize(10, 10));
  documentId = (
    await createPublished(
      server.db,
      bucket.id,
      {
        title: "With media",
        poster: image.contentId,
        clip: video.contentId,
        secret: secretImage.contentId,
        gone: randomUUID(),
        gallery: [image.contentId],
      },
      null,
    )
  ).contentId;
  ({ token } = await deliveryClient(server.db, { read: [bucket.slug] }));
});
afterAll(() => server.stop());

const readDocument = async (query = "") =>
  json<Doc>(await deliver(server.url, `/api/v1/delivery/buckets/${bucket.slug}/documents/${documentId}${query}`, token));
const relative = (url: string) => url.slice(server.url.length);

describe("media objects", () => {
  it("answers an image as an object: type, size, dimensions and a signed URL of its file", async () => {
    const doc = await readDocument();
    const poster = doc.data.poster as DeliveryMedia;
    expect(poster).toMatchObject({
      contentId: image.contentId,
      kind: "image",
      mimetype: "image/png",
      filename: "poster.png",
      width: 64,
      height: 48,
      size: image.size,
      stills: [],
      thumb: null,
    });
    expect(poster.url).toMatch(
      new RegExp(`^${server.url}/api/v1/delivery/media/${image.contentId}/original\\?expires=\\d+&signature=[A-Za-z0-9_-]{43}$`),
    );
    expect(poster.renditions).toEqual({ original: { url: poster.url, mimetype: "image/png" } });
    expect(doc.data.gallery).toEqual([poster]);
    // Without populate too, and the same with a locale.
    expect(((await readDocument("?locale=nl")).data.poster as DeliveryMedia).contentId).toBe(image.contentId);
  });

  it("answers a video with its web rendition, its stills and the chosen thumb", async () => {
    const clip = (await readDocument()).data.clip as DeliveryMedia;
    expect(clip).toMatchObject({ kind: "video", mimetype: "video/quicktime", width: 640, height: 360, duration: 2 });
    expect(clip.renditions.original?.mimetype).toBe("video/quicktime");
    expect(clip.renditions.web?.mimetype).toBe("video/mp4");
    expect(clip.url).toBe(clip.renditions.web?.url);
    expect(clip.stills.map((still) => still.index)).toEqual([0, 1]);
    expect(clip.thumb).toEqual({ url: clip.stills[1]?.url, index: 1, custom: false });
  });

  it("delivers an item of another bucket with the document that uses it; media that is gone is {contentId, missing: true}", async () => {
    // A save lets a document name only items its author may use (server/media/library-pick.ts): reading the
    // document is reading its media, whichever bucket's library holds them.
    const doc = await readDocument();
    expect(doc.data.secret).toMatchObject({ contentId: secretImage.contentId, kind: "image" });
    expect((doc.data.secret as { missing?: boolean }).missing).toBeUndefined();
    expect((doc.data.gone as { missing: boolean }).missing).toBe(true);
  });

  it("answers a new ETag when a media's state changes, and in the next signing window", async () => {
    const path = `/api/v1/delivery/buckets/${bucket.slug}/documents/${documentId}`;
    const held = async () => {
      const etag = (await deliver(server.url, path, token)).headers.get("etag")!;
      expect((await deliver(server.url, path, token, { "If-None-Match": etag })).status).toBe(304);
      return etag;
    };
    // The video's thumb chosen anew (a media row changes in place, unlike a document's version).
    const before = await held();
    await server.db.query(`UPDATE media SET details = jsonb_set(details, '{thumb}', '{"index": 0}') WHERE id = $1`, [video.id]);
    try {
      const changed = await deliver(server.url, path, token, { "If-None-Match": before });
      expect(changed.status).toBe(200);
      expect(changed.headers.get("etag")).not.toBe(before);
      expect((((await changed.json()) as Doc).data.clip as DeliveryMedia).thumb?.index).toBe(0);
    } finally {
      await server.db.query(`UPDATE media SET details = jsonb_set(details, '{thumb}', '{"index": 1}') WHERE id = $1`, [video.id]);
    }
    // The next window signs the URLs with a new expiry: a new answer and ETag.
    const inWindow = await held();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2 * server.config.DELIVERY_MEDIA_URL_TTL_SECONDS * 1000 });
    try {
      const later = await deliver(server.url, path, token, { "If-None-Match": inWindow });
      expect(later.status).toBe(200);
      expect(later.headers.get("etag")).not.toBe(inWindow);
    } finally {
      vi.useRealTimers();
    }
  });

  it("answers the same URLs (and ETag) on the next request within the window", async () => {
    const first = await deliver(server.url, `/api/v1/delivery/buckets/${bucket.slug}/documents/${documentId}`, token);
    const second = await deliver(server.url, `/api/v1/delivery/buckets/${bucket.slug}/documents/${documentId}`, token);
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
  });
});

describe("signed media URLs", () => {
  it("serve the files without a token: the original, the rendition, a still", async () => {
    const doc = await readDocument();
    const poster = doc.data.poster as DeliveryMedia;
    const clip = doc.data.clip as DeliveryMedia;
    const original = await fetch(poster.url);
    expect(original.status).toBe(200);
    expect(original.headers.get("content-type")).toBe("image/png");
    expect(original.headers.get("access-control-allow-origin")).toBe("*");
    expect(Buffer.from(await original.arrayBuffer()).equals(files[image.storageKey]!)).toBe(true);
    const web = await fetch(clip.renditions.web!.url, { headers: { Range: "bytes=0-5" } });
    expect(web.status).toBe(206);
    expect(await web.text()).toBe("not re");
    const still = await fetch(clip.thumb!.url);
    expect(still.status).toBe(200);
    expect(still.headers.get("content-type")).toBe("image/jpeg");
  });

  it("refuse a forged, altered or expired signature with 403, and an unknown file with 404", async () => {
    const poster = (await readDocument()).data.poster as DeliveryMedia;
    const url = new URL(poster.url);
    const signature = url.searchParams.get("signature")!;
    const forged = new URL(url);
    forged.searchParams.set("signature", `${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`);
    await expectProblem(await fetch(forged), 403);
    const longer = new URL(url);
    longer.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
    await expectProblem(await fetch(longer), 403);
    // Another media's file with this signature.
    await expectProblem(await fetch(`${server.url}/api/v1/delivery/media/${video.contentId}/original${url.search}`), 403);
    await expectProblem(await fetch(`${server.url}/api/v1/delivery/media/${image.contentId}/original`), 403);
    // Signed by the server, but expired.
    const past = Math.floor(Date.now() / 1000) - 10;
    await expectProblem(await fetch(signedMediaUrl(server.config, server.url, image.contentId, "original", past)), 403);
    const fresh = signedMediaUrl(server.config, server.url, image.contentId, "original", urlExpiry(server.config));
    expect((await fetch(fresh)).status).toBe(200);
    // The image has no stills; an unknown file name is no file at all.
    await expectProblem(await fetch(signedMediaUrl(server.config, server.url, image.contentId, "still-0", urlExpiry(server.config))), 404);
    await expectProblem(await fetch(`${server.url}${relative(poster.url).replace("/original?", "/thumbnail?")}`), 404);
  });
});
