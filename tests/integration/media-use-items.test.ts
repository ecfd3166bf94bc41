import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import type { User } from "@server/accounts/users";
import { createTestBucket, decode, page, signedInUser } from "@tests/support/fixtures";
import { get, inputValue, postForm, postJson, sameOrigin } from "@tests/support/http";
import { pngOfSize, postCrop, upload, videoOf } from "@tests/support/media-fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";
import { deliver, deliveryClient, json, type Doc } from "@tests/support/delivery";
import { publishNewest } from "@tests/support/publishing";
import { libraryBuckets, listLibrary } from "@server/media/library";
import { deleteMediaItems, describeMediaItem } from "@server/media/library-item";
import { parseLibraryQuery } from "@core/media/library";
import { MEDIA_CROP_FIELD, cropInputName } from "@core/media/form-edit";
import { documentPath } from "@core/content/screens";

/*
 * One use's own crop and texts (issue 35, docs/media.md, server/media/use-items.ts): a crop or texts made in one
 * document's field for a library item other documents use become that use's own item; the shared item, its other
 * uses and the library do not change. A new file for the shared item reaches every use; its deletion is guarded by
 * them all.
 */

let server: TestServer;
let cookie: string;
let user: User;
let rooms: Bucket;
let artworks: Bucket;

const schema = {
  type: "object",
  properties: {
    title: { type: "string", title: "Title" },
    image: { type: "string", title: "Image", _ref: "b-image", enableCrop: true, minWidth: 1, minHeight: 1 },
  },
};

beforeAll(async () => {
  server = await startTestServer();
  rooms = await createTestBucket(server.db, { name: "Use rooms", locales: ["en", "nl"], jsonSchema: schema });
  artworks = await createTestBucket(server.db, { name: "Use artworks", locales: ["en", "nl"], jsonSchema: schema });
  ({ cookie, user } = await signedInUser(server.url, server.db, { buckets: [rooms.slug, artworks.slug] }));
});
afterAll(() => server.stop());

async function uploadImage(bucket: Bucket, name: string, width: number, height: number): Promise<string> {
  const response = await upload(
    server.url,
    "image",
    cookie,
    { bucket: bucket.slug, properties: JSON.stringify(schema.properties.image) },
    { data: await pngOfSize(width, height), name },
  );
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return (JSON.parse(text) as Array<{ contentId: string }>)[0]!.contentId;
}

async function save(bucket: Bucket, content: Record<string, unknown>): Promise<{ contentId: string }> {
  const response = await postJson(
    server.url,
    `/api/v1/buckets/${bucket.slug}/save`,
    { content, collection: bucket.collectionName },
    cookie,
    sameOrigin(server.url),
  );
  const text = await response.text();
  expect([200, 201], text).toContain(response.status);
  return JSON.parse(text) as { contentId: string };
}

const bucketsOf = () => libraryBuckets(server.db, user, "en");
const list = async (search: string) =>
  (await listLibrary(server.db, await bucketsOf(), parseLibraryQuery(new URLSearchParams(search)))).items;
const usesOf = async (contentId: string) =>
  (
    await server.db.query<{ document: string }>(`SELECT document_id AS document FROM media_uses WHERE media_content_id = $1`, [contentId])
  ).rows
    .map((row) => row.document)
    .sort();
const latest = async (contentId: string) =>
  (await (await get(server.url, `/api/v1/buckets/image/content/${contentId}/latest`, cookie)).json()) as {
    contentId: string;
    _id: string;
    originalFilename: string;
    dimensions: { width: number; height: number };
    originalImageVersionId: string | null;
  };
async function delivered(bucket: Bucket, contentId: string, query = "") {
  await publishNewest(server.db, bucket.id, contentId);
  const { token } = await deliveryClient(server.db, { read: [bucket.slug] });
  const path = `/api/v1/delivery/buckets/${bucket.slug}/documents/${contentId}${query}`;
  return (await json<Doc>(await deliver(server.url, path, token))).data.image as Record<string, unknown>;
}
const editPage = (bucket: Bucket, document: string) => documentPath(bucket, document);

/** The field's "Texts for this use" posted from a saved document's form: the item whose texts are that use's. */
async function ownTextsItem(bucket: Bucket, document: string, title: string, field: string, item: string): Promise<string> {
  const left = await postForm(
    server.url,
    editPage(bucket, document),
    { __contentId: document, __baseVersionId: "", title, [field]: item, __useTexts: field },
    cookie,
  );
  expect(left.status).toBe(302);
  return /\/media\/([0-9a-f-]{36})\?pick=/.exec(left.headers.get("location")!)![1]!;
}

describe("a crop in one document's field", () => {
  it("of an item other documents use is this use's own: the shared item, its other uses and the library stay", async () => {
    const shared = await uploadImage(rooms, "use-crop-harbour.png", 200, 100);
    const sharedVersion = (await latest(shared))._id;
    const roomA = await save(rooms, { title: "Room A", image: shared });
    const painting = await save(artworks, { title: "Painting", image: shared });

    // The field of room A crops (as the crop dialog sends it: its bucket and its document).
    const cropped = await postCrop(server.url, shared, cookie, {
      coordinates: { x: 10, y: 10, width: 80, height: 60 },
      properties: schema.properties.image,
      bucket: rooms.slug,
      document: roomA.contentId,
    });
    expect(cropped.status).toBe(200);
    const own = (await cropped.json()) as { contentId: string; originalImageVersionId: string; dimensions: object };
    expect(own.contentId).not.toBe(shared);
    expect(own).toMatchObject({ originalImageVersionId: sharedVersion, dimensions: { width: 80, height: 60 } });
    // The shared item is as it was; the crop dialog can show the original the use's crop was made from.
    expect(await latest(shared)).toMatchObject({
      _id: sharedVersion,
      originalImageVersionId: null,
      dimensions: { width: 200, height: 100 },
    });
    const original = await get(server.url, `/api/v1/media/image/${own.contentId}?version=${sharedVersion}`, cookie);
    expect(original.status).toBe(200);

    await save(rooms, { ...roomA, title: "Room A", image: own.contentId });
    expect(await delivered(rooms, roomA.contentId)).toMatchObject({ contentId: own.contentId, width: 80, height: 60 });
    expect(await delivered(artworks, painting.contentId)).toMatchObject({ contentId: shared, width: 200, height: 100 });
    // The library lists the shared item once, used by both documents; the use item is not an item of its own.
    expect((await list("q=use-crop-harbour")).map((item) => [item.contentId, item.uses])).toEqual([[shared, 2]]);
    expect(await usesOf(shared)).toEqual([roomA.contentId, painting.contentId].sort());

    // A recrop starts from the shared original again and stays the use's.
    const recropped = await postCrop(server.url, own.contentId, cookie, {
      coordinates: { x: 0, y: 0, width: 150, height: 90 },
      properties: schema.properties.image,
      bucket: rooms.slug,
      document: roomA.contentId,
    });
    expect(await recropped.json()).toMatchObject({
      contentId: own.contentId,
      originalImageVersionId: sharedVersion,
      dimensions: { width: 150 },
    });
    expect(await latest(shared)).toMatchObject({ _id: sharedVersion });
  });

  it("of an item only this document uses changes the item, as the crop call always has", async () => {
    const image = await uploadImage(rooms, "use-crop-alone.png", 200, 100);
    const room = await save(rooms, { title: "Alone", image });
    const body = { coordinates: { x: 0, y: 0, width: 50, height: 50 }, properties: schema.properties.image, bucket: rooms.slug };
    expect(await (await postCrop(server.url, image, cookie, { ...body, document: room.contentId })).json()).toMatchObject({
      contentId: image,
    });
    // A new document's field (document null) on a fresh upload: the upload itself.
    const fresh = await uploadImage(rooms, "use-crop-fresh.png", 200, 100);
    expect(await (await postCrop(server.url, fresh, cookie, { ...body, document: null })).json()).toMatchObject({ contentId: fresh });
    // A document that is no UUID is refused, naming the field.
    const refused = await postCrop(server.url, image, cookie, { ...body, document: "room-1" });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain("'document' must be the contentId");
  });

  it("without JavaScript: the form's crop inputs crop the use, the field names the use item, the input is kept", async () => {
    const shared = await uploadImage(rooms, "use-crop-nojs.png", 200, 100);
    const other = await save(artworks, { title: "Elsewhere", image: shared });
    const room = await save(rooms, { title: "No script", image: shared });
    const version = (
      await server.db.query<{ id: string }>("SELECT latest_version_id AS id FROM contents WHERE content_id = $1", [room.contentId])
    ).rows[0]!.id;
    const posted = await postForm(
      server.url,
      editPage(rooms, room.contentId),
      {
        __contentId: room.contentId,
        __baseVersionId: version,
        title: "Typed, not saved",
        image: shared,
        [cropInputName("image", "x")]: "20",
        [cropInputName("image", "y")]: "0",
        [cropInputName("image", "width")]: "100",
        [cropInputName("image", "height")]: "100",
        [MEDIA_CROP_FIELD]: "image",
      },
      cookie,
    );
    const html = decode(await posted.text());
    expect(posted.status, html.slice(0, 400)).toBeLessThan(300);
    const named = inputValue(html, "image");
    expect(named).not.toBe(shared);
    expect(inputValue(html, "title")).toBe("Typed, not saved");
    expect(await latest(named!)).toMatchObject({ dimensions: { width: 100, height: 100 } });
    expect(await latest(shared)).toMatchObject({ dimensions: { width: 200, height: 100 } });
    expect(await delivered(artworks, other.contentId)).toMatchObject({ contentId: shared, width: 200 });
  });
});

describe("texts for one use", () => {
  it("the field's button leads to the use's own texts, which override the library item's for that document only", async () => {
    const shared = await uploadImage(rooms, "use-texts-dunes.png", 120, 90);
    await describeMediaItem(server.db, await bucketsOf(), shared, {
      alt: { en: "Dunes", nl: "Duinen" },
      caption: { en: "The dunes", nl: "De duinen" },
      credits: "© Museum",
    });
    const room = await save(rooms, { title: "Dune room", image: shared });
    const painting = await save(artworks, { title: "Dune painting", image: shared });

    const left = await postForm(
      server.url,
      editPage(artworks, painting.contentId),
      { __contentId: painting.contentId, __baseVersionId: "", title: "Typed title", image: shared, __useTexts: "image" },
      cookie,
    );
    expect(left.status).toBe(302);
    const itemPath = left.headers.get("location")!;
    const [, ownId, token] = /^\/media\/([0-9a-f-]{36})\?pick=([A-Za-z0-9_-]+)$/.exec(itemPath) ?? [];
    expect(ownId).toBeTruthy();
    expect(ownId).not.toBe(shared);

    // The use item's page: what it is, the library item's texts as placeholders, the way back to the form.
    const itemPage = decode((await page(server.url, itemPath, cookie)).html);
    expect(itemPage).toContain("This is one document's own version of a library item");
    expect(itemPage).toContain(`href="/media/${shared}"`);
    expect(itemPage).toContain('placeholder="Duinen"');
    expect(itemPage).toContain(`href="${editPage(artworks, painting.contentId)}?draft=${token}"`);
    expect(itemPage).not.toContain("Replace the file");
    const described = await postForm(
      server.url,
      `/media/${ownId}`,
      { intent: "describe", "alt.en": "Dunes, as the painter saw them", "alt.nl": "", "caption.en": "", "caption.nl": "", credits: "" },
      cookie,
    );
    expect(described.status).toBe(200);

    // Back in the form: the input kept, the field naming the use item; saved.
    const form = await page(server.url, `${editPage(artworks, painting.contentId)}?draft=${token}`, cookie);
    expect(inputValue(form.html, "title")).toBe("Typed title");
    expect(inputValue(form.html, "image")).toBe(ownId);
    await save(artworks, { ...painting, title: "Typed title", image: ownId });

    // Delivered: the painting's own alternative text, the rest from the library; the room as before.
    expect(await delivered(artworks, painting.contentId)).toMatchObject({
      contentId: ownId,
      alt: { en: "Dunes, as the painter saw them", nl: "Duinen" },
      caption: { en: "The dunes", nl: "De duinen" },
      credits: "© Museum",
    });
    expect(await delivered(artworks, painting.contentId, "?locale=nl")).toMatchObject({ alt: "Duinen" });
    expect(await delivered(rooms, room.contentId)).toMatchObject({ contentId: shared, alt: { en: "Dunes", nl: "Duinen" } });
    expect(await usesOf(shared)).toEqual([room.contentId, painting.contentId].sort());
  });

  it("of an item no other document uses are the item's own texts (no use item)", async () => {
    const image = await uploadImage(rooms, "use-texts-alone.png", 120, 90);
    const room = await save(rooms, { title: "Only room", image });
    const left = await postForm(
      server.url,
      editPage(rooms, room.contentId),
      { __contentId: room.contentId, __baseVersionId: "", title: "Only room", image, __useTexts: "image" },
      cookie,
    );
    expect(left.headers.get("location")).toMatch(new RegExp(`^/media/${image}\\?pick=`));
  });
});

describe("texts for one use of a video", () => {
  it("make a use item whose jobs make its own renditions from the same stored upload", async () => {
    const clips = await createTestBucket(server.db, {
      name: "Use clips",
      locales: ["en"],
      jsonSchema: {
        type: "object",
        properties: { title: { type: "string" }, clip: { type: "string", _ref: "b-video", minWidth: 1, minHeight: 1 } },
      },
    });
    await server.db.query("UPDATE users SET buckets = buckets || $2::text WHERE id = $1", [user.id, clips.slug]);
    const uploaded = await upload(
      server.url,
      "video",
      cookie,
      { bucket: clips.slug, properties: JSON.stringify({ type: "string", _ref: "b-video", minWidth: 1, minHeight: 1 }) },
      { data: videoOf({ width: 320, height: 240, fps: 25, seconds: 1 }), name: "use-clip.mp4" },
    );
    const text = await uploaded.text();
    expect(uploaded.status, text).toBe(200);
    const shared = (JSON.parse(text) as Array<{ contentId: string }>)[0]!.contentId;
    await save(clips, { title: "Clip room", clip: shared });
    const other = await save(clips, { title: "Clip guide", clip: shared });
    const left = await postForm(
      server.url,
      editPage(clips, other.contentId),
      { __contentId: other.contentId, __baseVersionId: "", title: "Clip guide", clip: shared, __useTexts: "clip" },
      cookie,
    );
    expect(left.status).toBe(302);
    const own = /\/media\/([0-9a-f-]{36})/.exec(left.headers.get("location")!)![1]!;
    expect(own).not.toBe(shared);
    const facts = async (contentId: string) =>
      (
        await server.db.query<{ status: string | null; storageKey: string; renditionKey: string | null }>(
          `SELECT m.storage_key AS "storageKey", m.details->>'renditionKey' AS "renditionKey",
             (SELECT string_agg(DISTINCT j.status, ',') FROM jobs j WHERE j.media_id = m.id) AS status
           FROM media_items i JOIN media m ON m.id = i.latest_media_id WHERE i.content_id = $1`,
          [contentId],
        )
      ).rows[0]!;
    await expect.poll(async () => (await facts(shared)).status, { timeout: 60_000, interval: 200 }).toBe("completed");
    await expect.poll(async () => (await facts(own)).status, { timeout: 60_000, interval: 200 }).toBe("completed");
    const [mine, library] = [await facts(own), await facts(shared)];
    expect(mine.storageKey).toBe(library.storageKey);
    expect(mine.renditionKey).toBeTruthy();
    expect(mine.renditionKey).not.toBe(library.renditionKey);
  });
});

describe("the shared item's new file and deletion", () => {
  it("reaches every use, its own crop and texts included (texts kept), and its deletion waits for them all", async () => {
    const shared = await uploadImage(rooms, "use-replace-old.png", 200, 100);
    const cropRoom = await save(rooms, { title: "Crop room", image: shared });
    const textRoom = await save(rooms, { title: "Text room", image: shared });
    const own = (await (
      await postCrop(server.url, shared, cookie, {
        coordinates: { x: 0, y: 0, width: 60, height: 60 },
        properties: schema.properties.image,
        bucket: rooms.slug,
        document: cropRoom.contentId,
      })
    ).json()) as { contentId: string };
    const cropSaved = await save(rooms, { ...cropRoom, title: "Crop room", image: own.contentId });
    const texts = await ownTextsItem(rooms, textRoom.contentId, "Text room", "image", shared);
    await describeMediaItem(server.db, await bucketsOf(), texts, { alt: { en: "Own words" }, caption: {}, credits: "" });
    const textSaved = await save(rooms, { ...textRoom, title: "Text room", image: texts });

    // Deleting the shared item is refused while its uses (through their own items) last.
    const refused = await deleteMediaItems(server.db, await bucketsOf(), [shared], "en");
    expect(refused.refused[0]?.uses.map((use) => use.title).sort()).toEqual(["Crop room", "Text room"]);

    const body = new FormData();
    body.append("file", new Blob([new Uint8Array(await pngOfSize(300, 150))], { type: "image/png" }), "use-replace-new.png");
    const replaced = await fetch(`${server.url}/media/${shared}`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie, ...sameOrigin(server.url) },
      body,
    });
    expect(replaced.status).toBe(302);
    for (const id of [shared, own.contentId, texts]) {
      expect(await latest(id)).toMatchObject({ originalFilename: "use-replace-new.png", dimensions: { width: 300, height: 150 } });
    }
    expect(await delivered(rooms, textRoom.contentId)).toMatchObject({ contentId: texts, width: 300, alt: { en: "Own words" } });

    // Once no document uses it, the shared item goes with its use items; the new file is removed once, not shared away.
    // (Published versions count as uses too: the emptied ones are published.)
    for (const [saved, title] of [
      [cropSaved, "Crop room"],
      [textSaved, "Text room"],
    ] as const) {
      await save(rooms, { ...saved, title, image: "" });
      await publishNewest(server.db, rooms.id, saved.contentId);
    }
    expect(await deleteMediaItems(server.db, await bucketsOf(), [shared], "en")).toMatchObject({ deleted: [shared], refused: [] });
    const { rows } = await server.db.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM media WHERE content_id = ANY($1::uuid[])",
      [[shared, own.contentId, texts]],
    );
    expect(rows[0]!.count).toBe(0);
  });

  it("a deleted use item leaves the shared item's file in place", async () => {
    const shared = await uploadImage(rooms, "use-delete-one.png", 120, 90);
    const a = await save(rooms, { title: "Keeps the file", image: shared });
    const b = await save(artworks, { title: "Had own texts", image: shared });
    const texts = await ownTextsItem(artworks, b.contentId, "Had own texts", "image", shared);
    expect(await deleteMediaItems(server.db, await bucketsOf(), [texts], "en")).toMatchObject({ deleted: [texts] });
    // Its version showed the shared item's stored file: that file is not scheduled for removal.
    const { rows } = await server.db.query<{ scheduled: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM media_removals r JOIN media m ON m.storage_key = r.storage_key WHERE m.content_id = $1) AS scheduled`,
      [shared],
    );
    expect(rows[0]!.scheduled).toBe(false);
    expect((await get(server.url, `/api/v1/media/image/${shared}`, cookie)).status).toBe(200);
    expect(await delivered(rooms, a.contentId)).toMatchObject({ contentId: shared, width: 120 });
  });
});

describe("choosing in place (a sub-form's dialog): GET /api/v1/media/library", () => {
  const find = (params: Record<string, string>, as = cookie) => get(server.url, `/api/v1/media/library?${new URLSearchParams(params)}`, as);
  type Answer = { items: Array<{ contentId: string; name: string; refusals: string[] }>; hasMore: boolean };

  it("lists the items of the field's kind the user may see, each with why it does not fit the field", async () => {
    const wide = await uploadImage(rooms, "dialog-wide.png", 300, 200);
    const narrow = await uploadImage(artworks, "dialog-narrow.png", 120, 90);
    const posters = await createTestBucket(server.db, {
      name: "Dialog posters",
      jsonSchema: {
        type: "object",
        properties: { title: { type: "string" }, image: { type: "string", title: "Poster", _ref: "b-image", minWidth: 150 } },
      },
    });
    const hidden = await createTestBucket(server.db, { name: "Dialog hidden", jsonSchema: schema });
    const secret = await (async () => {
      const admin = await signedInUser(server.url, server.db, { buckets: [hidden.slug] });
      const response = await upload(
        server.url,
        "image",
        admin.cookie,
        { bucket: hidden.slug, properties: JSON.stringify(schema.properties.image) },
        { data: await pngOfSize(400, 300), name: "dialog-secret.png" },
      );
      const text = await response.text();
      expect(response.status, text).toBe(200);
      return (JSON.parse(text) as Array<{ contentId: string }>)[0]!.contentId;
    })();
    await server.db.query("UPDATE users SET buckets = buckets || $2::text WHERE id = $1", [user.id, posters.slug]);

    const answer = (await (
      await find({ kind: "image", form: posters.slug, properties: JSON.stringify({ _ref: "b-image", minWidth: 150 }), q: "dialog-" })
    ).json()) as Answer;
    const byId = new Map(answer.items.map((item) => [item.contentId, item]));
    expect(byId.get(wide)?.refusals).toEqual([]);
    expect(byId.get(narrow)?.refusals).toEqual(["Image is too narrow (120px), minimum width: 150px"]);
    expect(byId.has(secret)).toBe(false);

    // In Dutch for a Dutch editor; a video field lists no images.
    const dutch = (await (
      await get(
        server.url,
        `/api/v1/media/library?${new URLSearchParams({ kind: "image", form: posters.slug, properties: JSON.stringify({ _ref: "b-image", minWidth: 150 }), q: "dialog-narrow" })}`,
        cookie,
        { "Accept-Language": "nl" },
      )
    ).json()) as Answer;
    expect(dutch.items[0]?.refusals[0]).toMatch(/^Afbeelding is te smal/);
  });

  it("refuses what names no field (400), a bucket the user may not see (404), and a signed-out caller (401)", async () => {
    const properties = JSON.stringify(schema.properties.image);
    expect((await find({ kind: "sound", form: rooms.slug, properties })).status).toBe(400);
    expect((await find({ kind: "video", form: rooms.slug, properties })).status).toBe(400);
    const hidden = await createTestBucket(server.db, { name: "Dialog hidden form", jsonSchema: schema });
    expect((await find({ kind: "image", form: hidden.slug, properties })).status).toBe(404);
    expect((await find({ kind: "image", form: rooms.slug, properties }, "")).status).toBe(401);
  });
});

describe("a deleted bucket's shared item", () => {
  it("leaves the use item another bucket's document names, as a library item of its own with its file", async () => {
    const admin = await signedInUser(server.url, server.db, { permissions: ["user", "admin"] });
    const closing = await createTestBucket(server.db, { name: "Use closing", locales: ["en"], jsonSchema: schema });
    await server.db.query("UPDATE users SET buckets = buckets || $2::text WHERE id = $1", [user.id, closing.slug]);
    const shared = await uploadImage(closing, "use-closing.png", 200, 100);
    await save(closing, { title: "Closing room", image: shared });
    const there = await save(artworks, { title: "Kept painting", image: shared });
    const own = await ownTextsItem(artworks, there.contentId, "Kept painting", "image", shared);
    await save(artworks, { ...there, title: "Kept painting", image: own });

    const deleted = await postForm(
      server.url,
      `/settings/buckets/${closing.slug}`,
      { intent: "delete", confirmSlug: closing.slug },
      admin.cookie,
    );
    expect(deleted.status).toBe(302);
    const { rows } = await server.db.query<{ useOf: string | null; bucket: string }>(
      `SELECT i.use_of AS "useOf", b.slug AS bucket FROM media_items i JOIN buckets b ON b.id = i.bucket_id WHERE i.content_id = $1`,
      [own],
    );
    expect(rows).toEqual([{ useOf: null, bucket: artworks.slug }]);
    expect(await delivered(artworks, there.contentId)).toMatchObject({ contentId: own, width: 200 });
    expect((await get(server.url, `/api/v1/media/image/${own}`, cookie)).status).toBe(200);
  });
});
