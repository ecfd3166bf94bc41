import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync, createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { deleteContent } from "@server/content/store";
import { createPublished, savePublished } from "@tests/support/publishing";
import { insertMedia, type MediaRow } from "@server/media/store";
import type { DeliveryMedia } from "@core/delivery/shape";
import { readBundle, verifyManifest, type ReadBundle } from "@tests/support/bundle";
import { runVitrine } from "@tests/support/cli";
import { deliver, deliveryClient, expectProblem, json, type Doc } from "@tests/support/delivery";
import { createTestBucket } from "@tests/support/fixtures";
import { pngOfSize } from "@tests/support/media-fixtures";
import { startTestServer, TEST_SESSION_SECRET, type TestServer } from "@tests/support/server";

/*
 * Offline bundles (GET /api/v1/delivery/bundle, docs/bundles.md): the archive's documents are the read API's, per
 * locale with populate, their media inside with relative URLs; manifest.json last, its sizes and hashes true;
 * incremental bundles; scopes and bad input; memory while large files stream; the CLI.
 */

let server: TestServer;
const unique = Date.now().toString(36);
let exhibits: Bucket;
let artists: Bucket;
let other: Bucket;
let token: string;
let clientId: string;
let otherToken: string;
let image: MediaRow;
let oldImage: MediaRow;
let video: MediaRow;
const ids: Record<string, string> = {};
const files: Record<string, Buffer> = {};

function storedFile(bytes: Buffer, ext: string): string {
  const key = `${randomUUID()}.${ext}`;
  writeFileSync(server.media.storage.pathOf(key), bytes);
  files[key] = bytes;
  return key;
}

async function storedMedia(target: Bucket, kind: "image" | "video", bytes: Buffer, details: Record<string, unknown> = {}) {
  const storageKey = storedFile(bytes, kind === "image" ? "png" : "mov");
  return insertMedia(server.db, {
    kind,
    bucketId: target.id,
    storageKey,
    originalFilename: kind === "image" ? "poster.png" : "clip.mov",
    mimetype: kind === "image" ? "image/png" : "video/quicktime",
    size: bytes.length,
    width: 64,
    height: 48,
    details,
    createdBy: null,
  });
}

beforeAll(async () => {
  server = await startTestServer({ env: { MEDIA_WORKERS: "0" } });
  artists = await createTestBucket(server.db, {
    slug: `bundle-artists-${unique}`,
    collectionName: `bundle-artists-${unique}`,
    locales: ["en", "nl"],
    jsonSchema: { type: "object", properties: { name: { type: "string" }, bio: { type: "string", translate: true } } },
  });
  other = await createTestBucket(server.db, { slug: `bundle-other-${unique}` });
  exhibits = await createTestBucket(server.db, {
    slug: `bundle-exhibits-${unique}`,
    collectionName: `bundle-exhibits-${unique}`,
    locales: ["nl", "en"],
    jsonSchema: {
      type: "object",
      properties: {
        title: { type: "string", translate: true },
        poster: { type: "string", _ref: "b-image" },
        clip: { type: "string", _ref: "b-video" },
        artist: { type: "string", _ref: `bundle-artists-${unique}` },
      },
    },
  });
  image = await storedMedia(exhibits, "image", await pngOfSize(64, 48));
  oldImage = await storedMedia(exhibits, "image", await pngOfSize(32, 32));
  const stills = [storedFile(Buffer.from("still zero"), "jpg"), storedFile(Buffer.from("still one"), "jpg")];
  const rendition = storedFile(Buffer.from("an mp4 rendition's bytes"), "mp4");
  video = await storedMedia(exhibits, "video", Buffer.from("a video's original bytes"), {
    renditionKey: rendition,
    stillKeys: stills,
    thumb: { index: 1 },
    duration: 2,
  });
  ids.artist = (
    await createPublished(server.db, artists.id, { name: "Mesdag", bio: { en: "Painter of the sea", nl: "Zeeschilder" } }, null)
  ).contentId;
  ids.e1 = (
    await createPublished(
      server.db,
      exhibits.id,
      {
        title: { nl: "Licht op het Noorden", en: "Light on the North" },
        poster: image.contentId,
        clip: video.contentId,
        artist: ids.artist,
      },
      null,
    )
  ).contentId;
  ids.e2 = (
    await createPublished(server.db, exhibits.id, { title: { nl: "Glas en Vuur", en: "" }, poster: oldImage.contentId }, null)
  ).contentId;
  ids.other = (await createPublished(server.db, other.id, { title: "Elsewhere" }, null)).contentId;
  const client = await deliveryClient(server.db, { read: [exhibits.slug, artists.slug] });
  token = client.token;
  clientId = client.client.id;
  ({ token: otherToken } = await deliveryClient(server.db, { read: [exhibits.slug, artists.slug] }));
});
afterAll(() => server.stop());

const bundleResponse = (query: string, bearer = token) => deliver(server.url, `/api/v1/delivery/bundle?${query}`, bearer);

async function fetchBundle(query: string, bearer = token): Promise<ReadBundle> {
  const response = await bundleResponse(query, bearer);
  if (response.status !== 200) throw new Error(`bundle: ${response.status} ${await response.text()}`);
  expect(response.headers.get("content-type")).toBe("application/x-tar");
  const bundle = await readBundle(response.body!);
  verifyManifest(bundle);
  return bundle;
}

/** The read API's document with each signed media URL replaced by the bundle path the manifest gives that file. */
function asInBundle(value: unknown, bundle: ReadBundle): unknown {
  if (typeof value === "string") {
    const match = /\/api\/v1\/delivery\/media\/([0-9a-f-]{36})\/([a-z0-9-]+)\?/.exec(value);
    if (!match) return value;
    const media = bundle.manifest.media.find((entry) => entry.contentId === match[1]);
    return media?.files[match[2]!] ?? `unlisted ${value}`;
  }
  if (Array.isArray(value)) return value.map((item) => asInBundle(item, bundle));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, asInBundle(child, bundle)]));
  return value;
}

describe("a full bundle", () => {
  let bundle: ReadBundle;
  beforeAll(async () => {
    bundle = await fetchBundle(`buckets=${exhibits.slug},${artists.slug}&locales=nl,en&populate=1`);
  });

  it("ends with a manifest naming the bundle, the client, the buckets with their schema versions, and every file with its size and SHA-256", () => {
    const { manifest } = bundle;
    expect(manifest).toMatchObject({
      format: "vitrine-bundle",
      formatVersion: 1,
      since: null,
      locales: ["nl", "en"],
      populate: 1,
      removed: null,
      client: { id: clientId },
    });
    expect(manifest.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(manifest.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(manifest.buckets.map((bucket) => [bucket.slug, bucket.schemaVersionId])).toEqual([
      [exhibits.slug, exhibits.schemaVersionId],
      [artists.slug, artists.schemaVersionId],
    ]);
    expect(manifest.buckets[0]!.documents.map((document) => document.contentId).sort()).toEqual([ids.e1, ids.e2].sort());
    expect(manifest.buckets[0]!.documents.find((document) => document.contentId === ids.e1)!.files).toEqual({
      nl: `content/${exhibits.slug}/nl/${ids.e1}.json`,
      en: `content/${exhibits.slug}/en/${ids.e1}.json`,
    });
    // verifyManifest checked that the files are the archive's entries, their sizes and hashes as streamed.
    expect(manifest.files.length).toBe(bundle.entries.length - 1);
    // Nothing of a bucket the client was not asked for.
    expect(bundle.entries.some((entry) => entry.path.includes(other.slug) || entry.path.includes(ids.other!))).toBe(false);
  });

  it("holds each document per locale exactly as the read API answers it with populate, media URLs made relative", async () => {
    for (const locale of ["nl", "en"]) {
      const fromApi = await json<Doc>(
        await deliver(server.url, `/api/v1/delivery/buckets/${exhibits.slug}/documents/${ids.e1}?locale=${locale}&populate=1`, token),
      );
      const inBundle = bundle.document(`content/${exhibits.slug}/${locale}/${ids.e1}.json`);
      expect(inBundle).toEqual(asInBundle(fromApi, bundle));
    }
    const dutch = bundle.document(`content/${exhibits.slug}/nl/${ids.e1}.json`);
    expect(dutch.data.title).toBe("Licht op het Noorden");
    // populate=1: the artist is the artist's document, in the same locale.
    expect(dutch.data.artist).toMatchObject({ contentId: ids.artist, data: { name: "Mesdag", bio: "Zeeschilder" } });
    // Fallbacks as the API reports them: e2 has no English title.
    const english = bundle.document(`content/${exhibits.slug}/en/${ids.e2}.json`);
    expect(english.data.title).toBe("Glas en Vuur");
    expect(english.fallbacks).toEqual({ title: "nl" });
  });

  it("carries the media files the documents name, at the relative paths their URLs give", () => {
    const dutch = bundle.document(`content/${exhibits.slug}/nl/${ids.e1}.json`);
    const poster = dutch.data.poster as DeliveryMedia;
    const clip = dutch.data.clip as DeliveryMedia;
    expect(poster.url).toBe(`media/${image.contentId}/original.png`);
    expect(clip.url).toBe(`media/${video.contentId}/web.mp4`);
    expect(clip.renditions.original?.url).toBe(`media/${video.contentId}/original.mov`);
    expect(clip.stills.map((still) => still.url)).toEqual([`media/${video.contentId}/still-0.jpg`, `media/${video.contentId}/still-1.jpg`]);
    expect(clip.thumb?.url).toBe(`media/${video.contentId}/still-1.jpg`);
    const byPath = new Map(bundle.entries.map((entry) => [entry.path, entry]));
    const expectFile = (name: string, key: string) => expect(byPath.get(name)?.bytes?.equals(files[key]!)).toBe(true);
    expectFile(poster.url, image.storageKey);
    expectFile(clip.url, video.details.renditionKey!);
    expectFile(clip.renditions.original!.url, video.storageKey);
    expectFile(clip.stills[1]!.url, video.details.stillKeys![1]!);
    expectFile(`media/${oldImage.contentId}/original.png`, oldImage.storageKey);
    // Each file once, though two locales name it.
    expect(bundle.entries.filter((entry) => entry.path === poster.url)).toHaveLength(1);
  });

  it("without locales holds one file per document with every locale, as the API answers without locale", async () => {
    const all = await fetchBundle(`buckets=${exhibits.slug}`);
    expect(all.manifest.locales).toBeNull();
    expect(all.manifest.populate).toBe(0);
    const document = all.document(`content/${exhibits.slug}/${ids.e1}.json`);
    expect(document.locale).toBeNull();
    expect(document.data.title).toEqual({ nl: "Licht op het Noorden", en: "Light on the North" });
    expect(document.data.artist).toBe(ids.artist);
    const fromApi = await json<Doc>(await deliver(server.url, `/api/v1/delivery/buckets/${exhibits.slug}/documents/${ids.e1}`, token));
    expect(document).toEqual(asInBundle(fromApi, all));
    // Populate reads only buckets the client may read; the artists are not in this bundle, but readable.
    expect(all.has(`content/${artists.slug}/${ids.artist}.json`)).toBe(false);
  });
});

describe("refusals", () => {
  it("answers 404 for a bucket the client does not read, as the read API does", async () => {
    await expectProblem(await bundleResponse(`buckets=${other.slug}`), 404);
    await expectProblem(await bundleResponse(`buckets=${exhibits.slug},${other.slug}`), 404);
    await expectProblem(await bundleResponse(`buckets=no-such-bucket-${unique}`), 404);
  });

  it("answers HEAD after checking the parameters, without making a bundle", async () => {
    const records = async () =>
      (await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM delivery_bundles WHERE client_id = $1", [clientId]))
        .rows[0]!.count;
    const before = await records();
    const head = await deliver(server.url, `/api/v1/delivery/bundle?buckets=${exhibits.slug}`, token, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("application/x-tar");
    expect((await deliver(server.url, `/api/v1/delivery/bundle?buckets=${other.slug}`, token, {}, "HEAD")).status).toBe(404);
    expect(await records()).toBe(before);
  });

  it("answers 401 without a token", async () => {
    await expectProblem(await bundleResponse(`buckets=${exhibits.slug}`, null as unknown as string), 401);
  });

  it("answers bad input with a 400 naming the parameter", async () => {
    await expectProblem(await bundleResponse(""), 400, "buckets");
    await expectProblem(await bundleResponse("buckets=,"), 400, "buckets");
    await expectProblem(await bundleResponse(`buckets=${exhibits.slug}&locales=fr`), 400, "locales");
    await expectProblem(await bundleResponse(`buckets=${exhibits.slug}&locales=`), 400, "locales");
    await expectProblem(await bundleResponse(`buckets=${exhibits.slug}&populate=99`), 400, "populate");
    await expectProblem(await bundleResponse(`buckets=${exhibits.slug}&since=yesterday`), 400, "since");
    const dutch = await expectProblem(
      await deliver(server.url, `/api/v1/delivery/bundle?buckets=${exhibits.slug}&locales=fr`, token, { "Accept-Language": "nl" }),
      400,
      "locales",
    );
    expect(dutch.detail).toContain("geen taal van");
  });

  it("answers an unknown since, or another client's bundle, with 404; a bundle of other choices with 400", async () => {
    await expectProblem(await bundleResponse(`buckets=${exhibits.slug}&since=${randomUUID()}`), 404, "since");
    const theirs = await fetchBundle(`buckets=${exhibits.slug}`, otherToken);
    await expectProblem(await bundleResponse(`buckets=${exhibits.slug}&since=${theirs.manifest.id}`), 404, "since");
    const mine = await fetchBundle(`buckets=${exhibits.slug}&locales=nl`);
    await expectProblem(await bundleResponse(`buckets=${exhibits.slug}&locales=en&since=${mine.manifest.id}`), 400, "since");
    await expectProblem(await bundleResponse(`buckets=${exhibits.slug}&locales=nl&populate=1&since=${mine.manifest.id}`), 400, "since");
  });
});

describe("an incremental bundle", () => {
  it("holds only changed documents and new media, and lists what was removed", async () => {
    const query = `buckets=${exhibits.slug},${artists.slug}&locales=nl,en&populate=1`;
    const first = await fetchBundle(query);

    // Nothing changed: no content, no media, an empty removed list.
    const same = await fetchBundle(`${query}&since=${first.manifest.id}`);
    expect(same.manifest.since).toBe(first.manifest.id);
    expect(same.entries.map((entry) => entry.path)).toEqual(["removed.json", "manifest.json"]);
    expect(same.removed()).toEqual({ since: first.manifest.id, documents: [], media: [], files: [] });
    // Its manifest still lists every document of the state.
    expect(same.manifest.buckets[0]!.documents.map((document) => document.contentId).sort()).toEqual([ids.e1, ids.e2].sort());

    // A new document with a new image, a deleted one (its image no longer used), an artist renamed (e1 populates it).
    const newImage = await storedMedia(exhibits, "image", await pngOfSize(20, 20));
    const e3 = (await createPublished(server.db, exhibits.id, { title: { nl: "Nieuw", en: "New" }, poster: newImage.contentId }, null))
      .contentId;
    const e2Version = first.manifest.buckets[0]!.documents.find((document) => document.contentId === ids.e2)!.versionId;
    await deleteContent(server.db, exhibits.id, ids.e2!, e2Version);
    const artistVersion = first.manifest.buckets[1]!.documents[0]!.versionId;
    await savePublished(server.db, {
      bucketId: artists.id,
      contentId: ids.artist!,
      baseVersionId: artistVersion,
      data: { name: "H. W. Mesdag", bio: { en: "Painter of the sea", nl: "Zeeschilder" } },
      userId: null,
    });

    const next = await fetchBundle(`${query}&since=${same.manifest.id}`);
    const paths = next.entries.map((entry) => entry.path).sort();
    expect(paths).toEqual(
      [
        `content/${exhibits.slug}/nl/${ids.e1}.json`,
        `content/${exhibits.slug}/en/${ids.e1}.json`,
        `content/${exhibits.slug}/nl/${e3}.json`,
        `content/${exhibits.slug}/en/${e3}.json`,
        `content/${artists.slug}/nl/${ids.artist}.json`,
        `content/${artists.slug}/en/${ids.artist}.json`,
        `media/${newImage.contentId}/original.png`,
        "removed.json",
        "manifest.json",
      ].sort(),
    );
    expect(next.document(`content/${exhibits.slug}/en/${ids.e1}.json`).data.artist).toMatchObject({ data: { name: "H. W. Mesdag" } });
    const removed = next.removed();
    expect(removed.since).toBe(same.manifest.id);
    expect(removed.documents).toEqual([
      {
        contentId: ids.e2,
        bucket: exhibits.slug,
        files: [`content/${exhibits.slug}/en/${ids.e2}.json`, `content/${exhibits.slug}/nl/${ids.e2}.json`],
      },
    ]);
    expect(removed.media).toEqual([{ contentId: oldImage.contentId, files: [`media/${oldImage.contentId}/original.png`] }]);
    expect(removed.files).toEqual([...removed.documents[0]!.files, ...removed.media[0]!.files].sort());
    expect(next.manifest.buckets[0]!.documents.map((document) => document.contentId).sort()).toEqual([ids.e1, e3].sort());
    expect(next.manifest.media.map((media) => media.contentId).sort()).toEqual(
      [image.contentId, video.contentId, newImage.contentId].sort(),
    );
  });
});

let bigBundle: { slug: string; token: string; clientId: string } | undefined;

describe("memory", () => {
  it("streams large media without holding them: RSS grows far less than the bytes sent", async () => {
    const bucket = await createTestBucket(server.db, {
      jsonSchema: { type: "object", properties: { title: { type: "string" }, clip: { type: "string", _ref: "b-video" } } },
    });
    const size = 20 * 1024 * 1024;
    const count = 8;
    for (let index = 0; index < count; index += 1) {
      const storageKey = `${randomUUID()}.mp4`;
      // Sparse files: the disk holds nothing, reading them gives zeros.
      const handle = await open(server.media.storage.pathOf(storageKey), "w");
      await handle.truncate(size);
      await handle.close();
      const media = await insertMedia(server.db, {
        kind: "video",
        bucketId: bucket.id,
        storageKey,
        originalFilename: `big-${index}.mp4`,
        mimetype: "video/mp4",
        size,
        width: 640,
        height: 360,
        details: {},
        createdBy: null,
      });
      await createPublished(server.db, bucket.id, { title: `Big ${index}`, clip: media.contentId }, null);
    }
    const { token: bigToken, client: bigClient } = await deliveryClient(server.db, { read: [bucket.slug] });
    bigBundle = { slug: bucket.slug, token: bigToken, clientId: bigClient.id };
    // What the server begins after listening (job runner, webhooks, sweep) must not count as the bundle's memory.
    await server.backgroundWorkStarted;
    // What a stream holds, not what a first one sets up once: the lazily imported tar writer, the allocator's
    // per-thread arenas for the file reads, the database's first reads. Measured on a first stream, these made
    // the growth vary from 7 to 54 MB from run to run (54 failed a CI run); a second stream of the same bundle
    // measures what streaming keeps. Garbage is collected every 8 MB, so a late collection on a busy machine
    // does not count either.
    const warmUp = await bundleResponse(`buckets=${bucket.slug}`, bigToken);
    expect(warmUp.status).toBe(200);
    let warmed = 0;
    for await (const chunk of warmUp.body as unknown as AsyncIterable<Uint8Array>) warmed += chunk.byteLength;
    expect(warmed).toBeGreaterThan(count * size);
    const collect = exposedGc();
    collect();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    let received = 0;
    let collectedAt = 0;
    try {
      const response = await bundleResponse(`buckets=${bucket.slug}`, bigToken);
      expect(response.status).toBe(200);
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        received += chunk.byteLength;
        if (received - collectedAt >= 8 * 1024 * 1024) {
          collect();
          collectedAt = received;
        }
        peak = Math.max(peak, process.memoryUsage().rss);
      }
    } finally {
      clearInterval(sampler);
    }
    expect(received).toBeGreaterThan(count * size);
    const growth = peak - before;
    // Server and client share this process: both sides together stay far below the 160 MB that went through.
    expect(
      growth,
      `RSS grew by ${(growth / 1024 / 1024).toFixed(1)} MB while ${(received / 1024 / 1024).toFixed(0)} MB streamed`,
    ).toBeLessThan(48 * 1024 * 1024);
  });
});

describe("a client that goes away", () => {
  it("stops the bundle: no record is made, and the next bundle streams whole", async () => {
    if (!bigBundle) throw new Error("the memory test makes the large bucket first");
    const { slug, token: bigToken, clientId: bigClientId } = bigBundle;
    const records = async () =>
      (await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM delivery_bundles WHERE client_id = $1", [bigClientId]))
        .rows[0]!.count;
    const before = await records();
    const abort = new AbortController();
    const response = await fetch(`${server.url}/api/v1/delivery/bundle?buckets=${slug}`, {
      headers: { Authorization: `Bearer ${bigToken}` },
      signal: abort.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read();
    abort.abort();
    await reader.read().catch(() => undefined);
    const whole = await fetchBundle(`buckets=${slug}`, bigToken);
    expect(whole.manifest.files.filter((file) => file.path.startsWith("media/"))).toHaveLength(8);
    expect(await records()).toBe(before + 1);
  });
});

describe("npm run vitrine -- export-bundle", () => {
  it("writes the same bundle to a file, for a client named by name or id, through the server holding the database", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "vitrine-bundle-cli-"));
    try {
      const env = {
        DATA_DIR: server.database.dataDir,
        SESSION_SECRET: TEST_SESSION_SECRET,
        ...(server.database.databaseUrl ? { DATABASE_URL: server.database.databaseUrl } : {}),
      };
      const { client } = await deliveryClient(server.db, { read: [exhibits.slug, artists.slug] });
      const out = path.join(dir, "exhibit.tar");
      const result = await runVitrine(
        env,
        "export-bundle",
        "--client",
        client.name,
        "--buckets",
        `${exhibits.slug},${artists.slug}`,
        "--locales",
        "nl,en",
        "--populate",
        "1",
        "--out",
        out,
      );
      expect(result, result.stderr).toMatchObject({ code: 0 });
      expect(result.stdout).toMatch(/^Bundle [0-9a-f-]{36}: \d+ files, \d+ bytes, written to /);
      const bundle = await readBundle(createReadStream(out));
      verifyManifest(bundle);
      expect(bundle.manifest).toMatchObject({ client: { id: client.id }, locales: ["nl", "en"], populate: 1 });
      expect(bundle.document(`content/${exhibits.slug}/en/${ids.e1}.json`).data.title).toBe("Light on the North");
      expect(bundle.has(`media/${image.contentId}/original.png`)).toBe(true);

      // Incremental, the client named by id: nothing changed since.
      const again = path.join(dir, "again.tar");
      const incremental = await runVitrine(
        env,
        "export-bundle",
        "--client",
        client.id,
        "--buckets",
        `${exhibits.slug},${artists.slug}`,
        "--locales",
        "nl,en",
        "--populate",
        "1",
        "--since",
        bundle.manifest.id,
        "--out",
        again,
      );
      expect(incremental, incremental.stderr).toMatchObject({ code: 0 });
      expect((await readBundle(createReadStream(again))).entries.map((entry) => entry.path)).toEqual(["removed.json", "manifest.json"]);

      // Refusals say what is wrong and leave no file.
      const refused = await runVitrine(
        env,
        "export-bundle",
        "--client",
        client.id,
        "--buckets",
        other.slug,
        "--out",
        path.join(dir, "no.tar"),
      );
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain("No such bucket");
      const unknown = await runVitrine(
        env,
        "export-bundle",
        "--client",
        `nobody-${unique}`,
        "--buckets",
        exhibits.slug,
        "--out",
        path.join(dir, "no.tar"),
      );
      expect(unknown.stderr).toContain("No live API client");
      expect(existsSync(path.join(dir, "no.tar"))).toBe(false);
      expect(existsSync(path.join(dir, "no.tar.part"))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** V8's full collection, made callable in this worker without a flag on the whole test run. */
function exposedGc(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}
