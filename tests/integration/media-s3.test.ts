import { readdirSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import type { Bucket } from "@server/content/buckets";
import { sweepOrphanedFiles } from "@server/media/orphans";
import { sweepPendingUploads } from "@server/media/pending";
import { removeScheduledMedia, scheduleBucketMediaRemoval } from "@server/media/removals";
import { readBundle } from "@tests/support/bundle";
import { deliver, deliveryClient, json } from "@tests/support/delivery";
import { createTestBucket, mediaRulesBucket, signedInUser } from "@tests/support/fixtures";
import { get, sameOrigin } from "@tests/support/http";
import { jpegOfSize, postCrop, upload, videoOf } from "@tests/support/media-fixtures";
import { createPublished } from "@tests/support/publishing";
import { startS3Server, type TestS3Server } from "@tests/support/s3-server";
import { startTestServer, type TestServer } from "@tests/support/server";
import type { DeliveryMedia } from "@core/delivery/shape";

/*
 * A server with MEDIA_STORAGE=s3 against a real S3-protocol server (s3rver): every way a media file goes in and out
 * (API upload, crop, a video's transcode and stills, a form's pending upload and its save, viewing with ranges and
 * ETags, the delivery API streamed and presigned, offline bundles, the sweeps, a deleted bucket's files) ends up in
 * or comes from the bucket, and nothing but this server's temporary folder is ever written locally.
 */

let s3: TestS3Server;
let server: TestServer;
let cookie: string;

beforeAll(async () => {
  s3 = await startS3Server();
  server = await startTestServer({ env: { ...s3.env, MEDIA_WORKERS: "1" } });
  ({ cookie } = await signedInUser(server.url, server.db));
}, 120_000);
afterAll(async () => {
  await server.stop();
  await s3.close();
});

type Content = { contentId: string; _id: string; status: string; url: string; thumbs?: Array<{ url: string }>; dimensions?: unknown };

async function uploaded(response: Response): Promise<Content> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return (JSON.parse(text) as Content[])[0]!;
}

async function stored(area: "files" | "pending"): Promise<string[]> {
  const names: string[] = [];
  for await (const { name } of server.media.storage.store.list(area)) names.push(name);
  return names.sort();
}

const storageKeyOf = async (versionId: string) =>
  (await server.db.query<{ key: string }>(`SELECT storage_key AS key FROM media WHERE id = $1`, [versionId])).rows[0]!.key;

async function bytes(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

const SMALL_VIDEO = { minWidth: 320, minHeight: 240 };
const CROPPABLE = { enableCrop: true };

describe("media on S3", () => {
  let image: Content;
  let imageBytes: Buffer;
  let imageBucket: string;

  it("stores an upload in the bucket, never in MEDIA_DIR, and serves it with ETags and byte ranges", async () => {
    imageBytes = await jpegOfSize(1920, 1080);
    imageBucket = (await mediaRulesBucket(server.db, CROPPABLE)).slug;
    image = await uploaded(
      await upload(
        server.url,
        "image",
        cookie,
        { bucket: imageBucket, uid: "u1", properties: JSON.stringify(CROPPABLE) },
        { data: imageBytes, name: "harbour.jpg" },
      ),
    );
    expect(await stored("files")).toContain(await storageKeyOf(image._id));
    expect(() => server.media.storage.filesDir).toThrow(/not on the file system/);

    const view = await get(server.url, image.url, cookie);
    expect(view.status).toBe(200);
    expect(view.headers.get("content-type")).toBe("image/jpeg");
    expect((await bytes(view)).equals(imageBytes)).toBe(true);
    expect((await get(server.url, image.url, cookie, { "If-None-Match": view.headers.get("etag")! })).status).toBe(304);
    const part = await get(server.url, image.url, cookie, { Range: "bytes=100-199" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-199/${imageBytes.length}`);
    expect((await bytes(part)).equals(imageBytes.subarray(100, 200))).toBe(true);
    expect((await get(server.url, image.url, cookie, { Range: `bytes=${imageBytes.length}-` })).status).toBe(416);
  });

  it("crops from the original read out of the bucket, and stores the crop there", async () => {
    const response = await postCrop(server.url, image.contentId, cookie, { coordinates: { x: 100, y: 50, width: 1280, height: 720 } });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const crop = JSON.parse(text) as Content;
    expect(await stored("files")).toContain(await storageKeyOf(crop._id));
    const cropped = await bytes(await get(server.url, crop.url, cookie));
    expect(await sharp(cropped).metadata()).toMatchObject({ width: 1280, height: 720 });
  });

  it("transcodes a video from the bucket and puts its rendition and stills there; they play with ranges", async () => {
    const video = await uploaded(
      await upload(
        server.url,
        "video",
        cookie,
        { bucket: (await mediaRulesBucket(server.db, SMALL_VIDEO)).slug, uid: "u1", properties: JSON.stringify(SMALL_VIDEO) },
        { data: videoOf({ width: 320, height: 240, fps: 25, seconds: 2, codec: "mpeg4" }), name: "clip.mp4" },
      ),
    );
    let done: Content | undefined;
    await expect
      .poll(
        async () => {
          done = (await (await get(server.url, `/api/v1/buckets/video/content/${video.contentId}/latest`, cookie)).json()) as Content;
          return done.status;
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe("completed");
    const { rows } = await server.db.query<{ details: { renditionKey: string; stillKeys: string[] } }>(
      `SELECT details FROM media WHERE id = $1`,
      [video._id],
    );
    const { renditionKey, stillKeys } = rows[0]!.details;
    expect(await stored("files")).toEqual(expect.arrayContaining([renditionKey, ...stillKeys]));
    const play = await get(server.url, done!.url, cookie, { Range: "bytes=0-99" });
    expect(play.status).toBe(206);
    expect(play.headers.get("content-type")).toBe("video/mp4");
    expect((await bytes(play)).subarray(4, 8).toString()).toBe("ftyp");
    const still = await get(server.url, done!.thumbs![1]!.url, cookie);
    expect(still.headers.get("content-type")).toBe("image/jpeg");
    expect(await sharp(await bytes(still)).metadata()).toMatchObject({ format: "jpeg" });
  });

  it("keeps a form's checked upload as a pending object, moves it into the files on the save, and sweeps the unsaved", async () => {
    const bucket: Bucket = await createTestBucket(server.db, {
      jsonSchema: {
        type: "object",
        required: ["name"],
        properties: { name: { type: "string" }, photo: { type: "string", _ref: "b-image" } },
      },
      locales: ["en"],
    });
    const post = (parts: Array<[string, string] | [string, Buffer, string]>) => {
      const form = new FormData();
      for (const [name, value, filename] of parts) {
        if (typeof value === "string") form.append(name, value);
        else form.append(name, new Blob([new Uint8Array(value)]), filename);
      }
      return fetch(`${server.url}/b/${bucket.slug}/new`, {
        method: "POST",
        redirect: "manual",
        headers: { Cookie: cookie, ...sameOrigin(server.url) },
        body: form,
      });
    };
    const base: Array<[string, string]> = [
      ["__contentId", ""],
      ["__baseVersionId", ""],
    ];
    const invalid = await post([...base, ["name", ""], ["__media_file.photo", imageBytes, "pier.jpg"]]);
    const html = await invalid.text();
    expect(invalid.status).toBe(400);
    const token = /name="__pendingUpload"[^>]*value="([^"]*)"/.exec(html)![1]!;
    const photo = token.split(".")[0]!;
    expect(await stored("pending")).toEqual([`${photo}.jpg`]);

    const saved = await post([...base, ["name", "Pier"], ["photo", photo], ["__pendingUpload", token]]);
    expect(saved.status, await saved.clone().text()).toBe(302);
    expect(await stored("pending")).toEqual([]);
    const { rows } = await server.db.query<{ key: string }>(`SELECT storage_key AS key FROM media WHERE content_id = $1`, [photo]);
    expect(await stored("files")).toContain(rows[0]!.key);

    // An upload nobody saves: its row and its object go with the sweep (here without waiting the day).
    await post([...base, ["name", ""], ["__media_file.photo", imageBytes, "unsaved.jpg"]]);
    expect(await stored("pending")).toHaveLength(1);
    expect(await sweepPendingUploads(server.db, server.media.storage, 0)).toBeGreaterThanOrEqual(1);
    expect(await stored("pending")).toEqual([]);
  });

  it("delivers media streamed through Vitrine, or redirected to the store's presigned URL with S3_PRESIGNED_DELIVERY", async () => {
    const bucket = await createTestBucket(server.db, {
      jsonSchema: { type: "object", properties: { title: { type: "string" }, poster: { type: "string", _ref: "b-image" } } },
    });
    await createPublished(server.db, bucket.id, { title: "On S3", poster: image.contentId }, null);
    const { token } = await deliveryClient(server.db, { read: [bucket.slug, imageBucket] });
    const list = await json<{ items: Array<{ data: { poster: DeliveryMedia } }> }>(
      await deliver(server.url, `/api/v1/delivery/buckets/${bucket.slug}/documents`, token),
    );
    const url = list.items[0]!.data.poster.url;
    const streamed = await fetch(url);
    expect(streamed.status).toBe(200);
    // The image's newest version: the crop.
    const delivered = await bytes(streamed);
    expect(await sharp(delivered).metadata()).toMatchObject({ width: 1280, height: 720 });

    const presigning = await startTestServer({ db: server.db, env: { ...s3.env, MEDIA_WORKERS: "0", S3_PRESIGNED_DELIVERY: "true" } });
    try {
      const redirect = await fetch(url.replace(server.url, presigning.url), { redirect: "manual" });
      expect(redirect.status).toBe(307);
      const location = redirect.headers.get("location")!;
      expect(location.startsWith(`${s3.endpoint}/${s3.bucket}/files/`)).toBe(true);
      const direct = await fetch(location);
      expect(direct.headers.get("content-type")).toBe("image/jpeg");
      expect((await bytes(direct)).equals(delivered)).toBe(true);
    } finally {
      await presigning.stop();
    }

    // An offline bundle takes the file's bytes from the bucket.
    const bundle = await readBundle((await deliver(server.url, `/api/v1/delivery/bundle?buckets=${bucket.slug}`, token)).body!);
    const entry = bundle.entries.find((item) => item.path.startsWith("media/") && item.path.includes(image.contentId));
    expect(entry?.size).toBe(delivered.length);
  });

  it("sweeps files no media version names, and removes a deleted bucket's files from the store", async () => {
    const orphan = server.media.storage.newKey("mp4");
    const local = server.media.storage.temporaryPath("mp4");
    writeFileSync(local, "a lost attempt's output");
    await server.media.storage.commit(local, orphan);
    const named = await storageKeyOf(image._id);
    // Young files are left alone (a save may be about to name them); old enough, the unnamed one goes.
    expect(await sweepOrphanedFiles(server.db, server.media.storage)).toBe(0);
    expect(await sweepOrphanedFiles(server.db, server.media.storage, 0)).toBe(1);
    expect(await stored("files")).not.toContain(orphan);
    expect(await stored("files")).toContain(named);

    // A bucket deleted with its media: their objects are removed from the store.
    const doomed = await mediaRulesBucket(server.db, {});
    const gone = await uploaded(
      await upload(
        server.url,
        "image",
        cookie,
        { bucket: doomed.slug, uid: "u1", properties: "{}" },
        { data: imageBytes, name: "gone.jpg" },
      ),
    );
    const { bucketId, key } = (
      await server.db.query<{ bucketId: string; key: string }>(
        `SELECT bucket_id AS "bucketId", storage_key AS key FROM media WHERE id = $1`,
        [gone._id],
      )
    ).rows[0]!;
    expect(await stored("files")).toContain(key);
    await server.db.transaction(async (tx) => {
      expect(await scheduleBucketMediaRemoval(tx, bucketId)).toEqual({ scheduled: 1, kept: 0 });
      await tx.query(`DELETE FROM buckets WHERE id = $1`, [bucketId]);
    });
    expect(await removeScheduledMedia(server.db, server.media.storage)).toBe(1);
    expect(await stored("files")).not.toContain(key);
  });

  it("left nothing in this server's temporary folder", () => {
    expect(readdirSync(server.media.storage.tmpDir)).toEqual([]);
  });
});
