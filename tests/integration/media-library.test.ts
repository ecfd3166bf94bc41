import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import type { User } from "@server/accounts/users";
import { createTestBucket, decode, page, signedInUser, topBar } from "@tests/support/fixtures";
import { get, inputValue, postForm, postJson, sameOrigin } from "@tests/support/http";
import { pngOfSize, upload } from "@tests/support/media-fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";
import { deliver, deliveryClient, json, type Doc } from "@tests/support/delivery";
import { publishNewest } from "@tests/support/publishing";
import { libraryBuckets, listLibrary } from "@server/media/library";
import { deleteMediaItems, describeMediaItem, findLibraryItem } from "@server/media/library-item";
import { parseLibraryQuery } from "@core/media/library";
import { createApiClient } from "@server/accounts/api-clients";

/*
 * The media library's domain (issue 35, docs/media.md): items kept from media versions, their uses kept from the
 * documents' newest and published versions, the list's search and filters, texts per locale, guarded deletes.
 */

let server: TestServer;
let cookie: string;
let user: User;
let exhibitions: Bucket;
let artworks: Bucket;
let hidden: Bucket;
/** Its image field asks for at least 100 × 50 pixels. */
let strict: Bucket;

const schema = {
  type: "object",
  properties: {
    title: { type: "string", title: "Title" },
    image: { type: "string", title: "Image", _ref: "b-image", minWidth: 1, minHeight: 1 },
    gallery: { type: "array", items: { type: "string", _ref: "b-image", minWidth: 1, minHeight: 1 } },
  },
};

beforeAll(async () => {
  server = await startTestServer();
  exhibitions = await createTestBucket(server.db, { name: "Exhibitions", locales: ["en", "nl"], jsonSchema: schema });
  artworks = await createTestBucket(server.db, { name: "Artworks", locales: ["en"], jsonSchema: schema });
  hidden = await createTestBucket(server.db, { name: "Hidden", locales: ["en"], jsonSchema: schema });
  strict = await createTestBucket(server.db, {
    name: "Strict",
    locales: ["en"],
    jsonSchema: {
      type: "object",
      properties: { title: { type: "string" }, image: { type: "string", _ref: "b-image", minWidth: 100, minHeight: 50 } },
    },
  });
  ({ cookie, user } = await signedInUser(server.url, server.db, { buckets: [exhibitions.slug, artworks.slug, strict.slug] }));
});
afterAll(() => server.stop());

async function uploadImage(
  bucket: Bucket,
  name: string,
  width = 120,
  height = 90,
  as = cookie,
  properties: Record<string, unknown> = { minWidth: 1, minHeight: 1 },
): Promise<string> {
  const response = await upload(
    server.url,
    "image",
    as,
    { bucket: bucket.slug, properties: JSON.stringify(properties) },
    {
      data: await pngOfSize(width, height),
      name,
    },
  );
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return (JSON.parse(text) as Array<{ contentId: string }>)[0]!.contentId;
}

async function save(bucket: Bucket, content: Record<string, unknown>, as = cookie): Promise<{ contentId: string; _id: string }> {
  const response = await postJson(
    server.url,
    `/api/v1/buckets/${bucket.slug}/save`,
    { content, collection: bucket.collectionName },
    as,
    sameOrigin(server.url),
  );
  const text = await response.text();
  expect([200, 201], text).toContain(response.status);
  return JSON.parse(text) as { contentId: string; _id: string };
}

const bucketsOf = (who: User = user) => libraryBuckets(server.db, who, "en");
const list = async (search: string) =>
  (await listLibrary(server.db, await bucketsOf(), parseLibraryQuery(new URLSearchParams(search)))).items;
const usesOf = async (contentId: string) =>
  (
    await server.db.query<{ document: string }>(
      `SELECT document_id AS document FROM media_uses WHERE media_content_id = $1 ORDER BY document_id`,
      [contentId],
    )
  ).rows
    .map((row) => row.document)
    .sort();

describe("media items and their uses", () => {
  it("an upload is an item; a save that names it (in a field or a list) makes a use, a save that drops it ends it", async () => {
    const image = await uploadImage(exhibitions, "harbour.png");
    expect((await list("q=harbour")).map((item) => item.contentId)).toEqual([image]);
    expect(await usesOf(image)).toEqual([]);

    const room = await save(exhibitions, { title: "Room 1", image });
    const gallery = await save(artworks, { title: "Seascape", gallery: [image] });
    expect(await usesOf(image)).toEqual([room.contentId, gallery.contentId].sort());

    await save(artworks, { ...gallery, title: "Seascape", gallery: [] });
    expect(await usesOf(image)).toEqual([room.contentId]);
    const [item] = await list("q=harbour");
    expect(item).toMatchObject({ kind: "image", name: "harbour.png", width: 120, height: 90, uses: 1, bucket: { slug: exhibitions.slug } });
  });

  it("a save checks an item the document names for the first time: visible to the user, within the field's bounds", async () => {
    const small = await uploadImage(exhibitions, "small harbour.png", 120, 90);
    const large = await createTestBucket(server.db, {
      name: "Large",
      jsonSchema: {
        type: "object",
        properties: { title: { type: "string" }, image: { type: "string", _ref: "b-image", minWidth: 150, minHeight: 100 } },
      },
    });
    await server.db.query("UPDATE users SET buckets = buckets || $2::text WHERE id = $1", [user.id, large.slug]);
    const trySave = (bucket: Bucket, content: Record<string, unknown>) =>
      postJson(
        server.url,
        `/api/v1/buckets/${bucket.slug}/save`,
        { content, collection: bucket.collectionName },
        cookie,
        sameOrigin(server.url),
      );
    const refused = await trySave(large, { title: "Too small", image: small });
    expect(refused.status).toBe(422);
    expect((await refused.json()).errors.image).toEqual([
      "Image is too narrow (120px), minimum width: 150px",
      "Image is not high enough (90px), minimum height: 100px",
    ]);
    // An item of a bucket the user may not see does not exist for them.
    const { cookie: admin } = await signedInUser(server.url, server.db, { permissions: ["user", "admin"] });
    const secret = await uploadImage(hidden, "secret.png", 120, 90, admin);
    const unseen = await trySave(artworks, { title: "Not mine", image: secret });
    expect(unseen.status).toBe(422);
    expect((await unseen.json()).errors.image).toEqual(["No such media"]);
    expect(await usesOf(secret)).toEqual([]);

    // Fitting, of another bucket the user may see: taken; nothing is copied.
    const fitting = await uploadImage(exhibitions, "wide harbour.png", 200, 100);
    const taken = await save(strict, { title: "Wide", image: fitting });
    expect(await usesOf(fitting)).toEqual([taken.contentId]);
    expect((await list("q=wide harbour")).map((item) => item.contentId)).toEqual([fitting]);
    // Once used, a later save of the document does not check it again (its field's bounds may have changed since).
    await server.db.query("UPDATE media SET width = 10 WHERE content_id = $1", [fitting]);
    await save(strict, { ...taken, title: "Wide, renamed", image: fitting });
  });

  it("an API client's save may name only items of the buckets it reads or writes", async () => {
    const image = await uploadImage(exhibitions, "client-harbour.png", 200, 120);
    const { token: writer } = await createApiClient(
      server.db,
      { id: user.id, name: "Test" },
      {
        name: "Importer",
        readBuckets: [artworks.slug],
        writeBuckets: [artworks.slug],
        allowedOrigins: [],
        preview: false,
        expiresAt: null,
      },
    );
    const saveAs = (token: string) =>
      fetch(`${server.url}/api/v1/buckets/${artworks.slug}/save`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ content: { title: "By the importer", image }, collection: artworks.collectionName }),
      });
    const refused = await saveAs(writer);
    expect(refused.status).toBe(422);
    expect((await refused.json()).errors.image).toEqual(["No such media"]);
    const { token: reader } = await createApiClient(
      server.db,
      { id: user.id, name: "Test" },
      {
        name: "Importer reading exhibitions",
        readBuckets: [artworks.slug, exhibitions.slug],
        writeBuckets: [artworks.slug],
        allowedOrigins: [],
        preview: false,
        expiresAt: null,
      },
    );
    expect((await saveAs(reader)).status).toBe(201);
    expect(await usesOf(image)).toHaveLength(1);
    // Items of a bucket it only writes to: its own bucket's.
    const own = await uploadImage(artworks, "client-own.png", 200, 120);
    const { token: writeOnly } = await createApiClient(
      server.db,
      { id: user.id, name: "Test" },
      { name: "Write-only importer", readBuckets: [], writeBuckets: [artworks.slug], allowedOrigins: [], preview: false, expiresAt: null },
    );
    const ownSave = await fetch(`${server.url}/api/v1/buckets/${artworks.slug}/save`, {
      method: "POST",
      headers: { Authorization: `Bearer ${writeOnly}`, "Content-Type": "application/json" },
      body: JSON.stringify({ content: { title: "Own image", image: own }, collection: artworks.collectionName }),
    });
    expect(ownSave.status, await ownSave.clone().text()).toBe(201);
  });

  it("a deleted document takes its uses with it", async () => {
    const image = await uploadImage(artworks, "lighthouse.png");
    const doc = await save(artworks, { title: "Lighthouse", image });
    expect(await usesOf(image)).toEqual([doc.contentId]);
    await server.db.query(`DELETE FROM contents WHERE content_id = $1`, [doc.contentId]);
    expect(await usesOf(image)).toEqual([]);
  });

  it("lists only the media of buckets the user may see, and 404s the others", async () => {
    const secret = await uploadImage(hidden, "secret-plan.png", 120, 90, (await signedInUser(server.url, server.db)).cookie);
    expect(await list("q=secret-plan")).toEqual([]);
    await expect(findLibraryItem(server.db, await bucketsOf(), secret, "en")).rejects.toMatchObject({ status: 404 });
    await expect(deleteMediaItems(server.db, await bucketsOf(), [secret], "en")).rejects.toMatchObject({ status: 404 });
    expect((await server.db.query(`SELECT 1 FROM media WHERE content_id = $1`, [secret])).rows).toHaveLength(1);
  });

  it("filters by kind, bucket, use and uploader, sorts by name and size, and pages", async () => {
    const prefix = `sortable-${Date.now()}`;
    const small = await uploadImage(artworks, `${prefix}-b.png`, 100, 100);
    const large = await uploadImage(artworks, `${prefix}-a.png`, 300, 200);
    await save(artworks, { title: "Uses the small one", image: small });
    expect((await list(`q=${prefix}&sort=name`)).map((item) => item.contentId)).toEqual([large, small]);
    expect((await list(`q=${prefix}&sort=size`)).map((item) => item.contentId)).toEqual([large, small]);
    expect((await list(`q=${prefix}&use=used`)).map((item) => item.contentId)).toEqual([small]);
    expect((await list(`q=${prefix}&use=unused`)).map((item) => item.contentId)).toEqual([large]);
    expect(await list(`q=${prefix}&kind=video`)).toEqual([]);
    expect(await list(`q=${prefix}&bucket=${exhibitions.slug}`)).toEqual([]);
    expect(await list(`q=${prefix}&uploader=${user.id}`)).toHaveLength(2);
    expect(await list(`q=${prefix}&page=2`)).toEqual([]);
  });

  it("keeps an alternative text and a caption per locale of the item's bucket, and credits; searchable; 'missing alt text' per locale", async () => {
    const image = await uploadImage(exhibitions, "tulips.png");
    const buckets = await bucketsOf();
    expect((await list("q=tulips&alt=missing"))[0]).toMatchObject({ contentId: image, missingAlt: ["en", "nl"] });

    const errors = await describeMediaItem(server.db, buckets, image, {
      alt: { en: "A field of red tulips", nl: "x".repeat(501) },
      caption: {},
      credits: "",
    });
    expect(errors).toEqual({ "alt.nl": { key: "library.tooLong", params: { max: 500 } } });
    expect((await findLibraryItem(server.db, buckets, image, "en")).descriptions.alt).toEqual({});

    expect(
      await describeMediaItem(server.db, buckets, image, {
        alt: { en: "  A field of red tulips ", nl: "", de: "ignored" },
        caption: { en: "Spring, 1890", nl: "Lente, 1890" },
        credits: "© Rijksmuseum",
      }),
    ).toEqual({});
    const item = await findLibraryItem(server.db, buckets, image, "en");
    expect(item.descriptions).toEqual({
      alt: { en: "A field of red tulips" },
      caption: { en: "Spring, 1890", nl: "Lente, 1890" },
      credits: "© Rijksmuseum",
    });
    expect(item.missingAlt).toEqual(["nl"]);
    expect((await list("q=rijksmuseum")).map((found) => found.contentId)).toEqual([image]);
    expect((await list("q=red tulips")).map((found) => found.contentId)).toEqual([image]);
  });

  it("refuses to delete an item in use (naming the documents), deletes unused ones with their files", async () => {
    const used = await uploadImage(exhibitions, "used.png");
    const unused = await uploadImage(exhibitions, "unused.png");
    const doc = await save(exhibitions, { title: "Using it", image: used });
    const [{ key }] = (await server.db.query<{ key: string }>(`SELECT storage_key AS key FROM media WHERE content_id = $1`, [unused]))
      .rows as [{ key: string }];
    const { deleted, refused } = await deleteMediaItems(server.db, await bucketsOf(), [used, unused], "en");
    expect(deleted).toEqual([unused]);
    expect(refused).toEqual([
      {
        contentId: used,
        name: "used.png",
        uses: [
          {
            contentId: doc.contentId,
            title: "Using it",
            bucket: { slug: exhibitions.slug, name: "Exhibitions" },
            path: `/b/${exhibitions.slug}/${doc.contentId}/latest`,
          },
        ],
        hiddenUses: 0,
      },
    ]);
    const remaining = await server.db.query<{ contentId: string }>(
      `SELECT DISTINCT content_id AS "contentId" FROM media WHERE content_id = ANY($1::uuid[])`,
      [[used, unused]],
    );
    expect(remaining.rows.map((row) => row.contentId)).toEqual([used]);
    expect((await server.db.query(`SELECT 1 FROM media_items WHERE content_id = $1`, [unused])).rows).toHaveLength(0);
    expect((await server.db.query(`SELECT 1 FROM media_removals WHERE storage_key = $1`, [key])).rows).toHaveLength(1);
  });
});

/** A multipart post of text fields (in order) and files, as the library's forms send them. */
function postMultipart(
  path: string,
  fields: Array<[string, string]>,
  files: Array<{ name: string; field: string; data: Buffer }>,
  as = cookie,
) {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  for (const file of files) form.append(file.field, new Blob([new Uint8Array(file.data)]), file.name);
  return fetch(`${server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: as, ...sameOrigin(server.url) },
    body: form,
  });
}

describe("the library's pages", () => {
  it("/media lists the user's media with its facts and uses, filtered by its address; signed out it sends to sign-in", async () => {
    const image = await uploadImage(exhibitions, "pages-harbour.png");
    await save(artworks, { title: "Harbour view", image });
    const listed = await page(server.url, "/media?q=pages-harbour&view=list", cookie);
    expect(listed.status).toBe(200);
    expect(listed.html).toContain("pages-harbour.png");
    expect(listed.html).toContain("120 × 90");
    expect(decode(listed.html)).toContain("1 document");
    expect((await page(server.url, "/media?q=pages-harbour&kind=file", cookie)).html).not.toContain("pages-harbour.png");
    expect((await page(server.url, "/media?q=pages-harbour&use=unused", cookie)).html).not.toContain("pages-harbour.png");
    // Nonsense in the address falls back to the defaults.
    expect((await page(server.url, "/media?q=pages-harbour&sort=sideways&page=-3&kind=pdf", cookie)).html).toContain("pages-harbour.png");
    const signedOut = await page(server.url, "/media");
    expect(signedOut.status).toBe(302);
    expect(signedOut.location).toMatch(/^\/login/);
    // The top bar links to it.
    expect(topBar(listed.html)).toContain('href="/media"');
  });

  it("an item of a bucket the user may not see, an unknown id and a malformed one answer 404 through every page", async () => {
    const other = (await signedInUser(server.url, server.db)).cookie;
    const secret = await uploadImage(hidden, "pages-secret.png", 120, 90, other);
    for (const id of [secret, "7d0c5e2e-95c9-4a41-9d5f-0c7f1b0c0e11", "not-an-id"]) {
      expect((await page(server.url, `/media/${id}`, cookie)).status).toBe(404);
      expect((await postForm(server.url, `/media/${id}`, { intent: "delete" }, cookie)).status).toBe(404);
      const replaced = await postMultipart(`/media/${id}`, [], [{ field: "file", name: "x.png", data: await pngOfSize(120, 90) }]);
      expect(replaced.status).toBe(404);
    }
    expect((await postForm(server.url, "/media", { item: secret }, cookie)).status).toBe(404);
    expect((await page(server.url, "/media?q=pages-secret", cookie)).html).not.toContain("pages-secret.png");
    expect((await server.db.query(`SELECT 1 FROM media WHERE content_id = $1`, [secret])).rows).toHaveLength(1);
  });

  it("describes an item per locale of its bucket; too long a text is refused with its message and the input kept", async () => {
    const image = await uploadImage(exhibitions, "pages-tulips.png");
    const refused = await postForm(
      server.url,
      `/media/${image}`,
      { intent: "describe", "alt.en": "Tulips", "alt.nl": "x".repeat(501), "caption.en": "", "caption.nl": "", credits: "" },
      cookie,
    );
    expect(refused.status).toBe(422);
    const refusedHtml = decode(await refused.text());
    expect(refusedHtml).toContain("At most 500 characters.");
    expect(refusedHtml).toContain(">Tulips</textarea>");
    const saved = await postForm(
      server.url,
      `/media/${image}`,
      {
        intent: "describe",
        "alt.en": "Red tulips",
        "alt.nl": "Rode tulpen",
        "caption.en": "Spring",
        "caption.nl": "Lente",
        credits: "© Museum",
      },
      cookie,
    );
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Descriptions saved.");
    const shown = decode((await page(server.url, `/media/${image}`, cookie)).html);
    expect(shown).toContain(">Rode tulpen</textarea>");
    expect(shown).toContain('value="© Museum"');
  });

  it("deletes selected unused items from the list and names the documents that use the others", async () => {
    const used = await uploadImage(exhibitions, "pages-used.png");
    const unused = await uploadImage(exhibitions, "pages-unused.png");
    await save(exhibitions, { title: "Room with a view", image: used });
    const response = await postFields("/media", [
      ["item", used],
      ["item", unused],
    ]);
    expect(response.status).toBe(409);
    const html = decode(await response.text());
    expect(html).toContain("1 item deleted.");
    expect(html).toContain("Not deleted, because documents use it:");
    expect(html).toContain("Room with a view");
    expect((await postForm(server.url, "/media", {}, cookie)).status).toBe(400);
    const one = await postForm(server.url, `/media/${used}`, { intent: "delete" }, cookie);
    expect(one.status).toBe(409);
    expect(decode(await one.text())).toContain("Room with a view");
  });

  it("uploads several files at once into a chosen bucket; each is taken or refused on its own", async () => {
    const response = await postMultipart(
      "/media",
      [["bucket", artworks.slug]],
      [
        { field: "files", name: "pages-one.png", data: await pngOfSize(120, 90) },
        { field: "files", name: "pages-notes.txt", data: Buffer.from("Room notes. ".repeat(200)) },
        { field: "files", name: "pages-tiny.png", data: Buffer.from("tiny") },
      ],
    );
    expect(response.status).toBe(200);
    const html = decode(await response.text()).replace(/<!-- -->/g, "");
    expect(html).toMatch(/Uploaded: <a href="\/media\/[0-9a-f-]{36}"[^>]*>pages-one\.png<\/a>/);
    expect(html).toMatch(/Uploaded: <a href="\/media\/[0-9a-f-]{36}"[^>]*>pages-notes\.txt<\/a>/);
    expect(html).toContain("Not uploaded: pages-tiny.png");
    expect(html).toContain("The file is too small (4 bytes)");
    const items = await list("q=pages-");
    expect(items.find((item) => item.name === "pages-one.png")).toMatchObject({ kind: "image", bucket: { slug: artworks.slug } });
    expect(items.find((item) => item.name === "pages-notes.txt")).toMatchObject({ kind: "file" });
    // A bucket the user may not see is refused before any file is kept.
    const refused = await postMultipart(
      "/media",
      [["bucket", hidden.slug]],
      [{ field: "files", name: "pages-x.png", data: await pngOfSize(120, 90) }],
    );
    expect(refused.status).toBe(400);
    expect(decode(await refused.text())).toContain("Choose a bucket you may see.");
  });

  it("replaces a file for every use, refusing one that does not fit a field that uses it", async () => {
    const image = await uploadImage(strict, "pages-wide.png", 200, 100, cookie, { minWidth: 100, minHeight: 50 });
    await save(strict, { title: "Strict use", image });
    await save(exhibitions, { title: "Loose use", image });

    const refused = await postMultipart(`/media/${image}`, [], [{ field: "file", name: "narrow.png", data: await pngOfSize(99, 99) }]);
    expect(refused.status).toBe(422);
    const html = decode(await refused.text());
    expect(html).toContain("Not replaced: the new file does not fit where it is used.");
    const alert = html.slice(html.indexOf('role="alert"'), html.indexOf("</div>", html.indexOf('role="alert"')));
    expect(alert).toContain("Strict use, image:");
    expect(alert).toContain("Image is too narrow (99px), minimum width: 100px");
    expect(alert).not.toContain("Loose use");
    expect((await findLibraryItem(server.db, await bucketsOf(), image, "en")).versions).toHaveLength(1);

    const taken = await postMultipart(`/media/${image}`, [], [{ field: "file", name: "wider.png", data: await pngOfSize(300, 150) }]);
    expect(taken.status).toBe(302);
    expect(taken.headers.get("location")).toBe(`/media/${image}?notice=replaced`);
    const item = await findLibraryItem(server.db, await bucketsOf(), image, "en");
    expect(item.versions.map((version) => version.name)).toEqual(["wider.png", "pages-wide.png"]);
    expect(item).toMatchObject({ name: "wider.png", width: 300, height: 150, uses: 2 });
    // Every use shows the new file: the field's contentId names the newest version.
    const latest = await (await get(server.url, `/api/v1/buckets/image/content/${image}/latest`, cookie)).json();
    expect(latest).toMatchObject({ originalFilename: "wider.png", dimensions: { width: 300, height: 150 } });
  });
});

describe("choosing from the library in a field", () => {
  it("an item used by three documents in two buckets is chosen by a fourth field through the picker, then replaced for all four", async () => {
    const large = await createTestBucket(server.db, {
      name: "Posters",
      jsonSchema: {
        type: "object",
        properties: {
          title: { type: "string" },
          image: { type: "string", title: "Poster", _ref: "b-image", minWidth: 150, minHeight: 100 },
        },
      },
    });
    await server.db.query("UPDATE users SET buckets = buckets || $2::text WHERE id = $1", [user.id, large.slug]);
    const shared = await uploadImage(exhibitions, "pick-shared.png", 200, 120);
    const narrow = await uploadImage(exhibitions, "pick-narrow.png", 120, 90);
    const uses = [
      await save(exhibitions, { title: "Room A", image: shared }),
      await save(exhibitions, { title: "Room B", gallery: [shared] }),
      await save(artworks, { title: "Painting", image: shared }),
    ];
    expect((await list("q=pick-shared"))[0]).toMatchObject({ uses: 3 });

    // The field's button keeps the form's input as a draft and opens the library for that field.
    const left = await postForm(
      server.url,
      `/b/${large.slug}/new`,
      { __contentId: "", __baseVersionId: "", title: "Kept title", __chooseFromLibrary: "image" },
      cookie,
    );
    expect(left.status).toBe(302);
    const pickPath = left.headers.get("location")!;
    expect(pickPath).toMatch(/^\/media\?pick=[A-Za-z0-9_-]+$/);
    const token = new URL(pickPath, server.url).searchParams.get("pick")!;

    // Only images, each fitting one with its Choose button, the others with the field's own words why not.
    const picker = decode((await page(server.url, `${pickPath}&q=pick-`, cookie)).html);
    expect(picker).toContain("Choose for “Poster”");
    const card = (contentId: string) =>
      picker.slice(
        picker.indexOf(`data-media-item="${contentId}"`),
        picker.indexOf("</li>", picker.indexOf(`data-media-item="${contentId}"`)),
      );
    expect(card(shared)).toContain('data-fits="true"');
    expect(card(shared)).toContain("Choose");
    expect(card(narrow)).toContain('data-fits="false"');
    expect(card(narrow)).toContain("Image is too narrow (120px), minimum width: 150px");
    expect(card(narrow)).not.toContain('name="intent"');

    // A choice of what does not fit is refused as the save would refuse it; the fitting one goes back to the form.
    const refused = await postForm(server.url, "/media", { intent: "pick", pick: token, item: narrow }, cookie);
    expect(refused.status).toBe(422);
    expect(decode(await refused.text())).toContain("Image is not high enough (90px), minimum height: 100px");
    const chosen = await postForm(server.url, "/media", { intent: "pick", pick: token, item: shared }, cookie);
    expect(chosen.status).toBe(302);
    const back = chosen.headers.get("location")!;
    expect(back).toBe(`/b/${large.slug}/new?draft=${token}`);
    const form = await page(server.url, back, cookie);
    expect(inputValue(form.html, "title")).toBe("Kept title");
    expect(inputValue(form.html, "image")).toBe(shared);
    expect(form.html).toContain("pick-shared.png");

    // Saved: a fourth use, nothing copied.
    const saved = await postForm(
      server.url,
      `/b/${large.slug}/new`,
      { __contentId: "", __baseVersionId: "", title: "Kept title", image: shared },
      cookie,
    );
    expect(saved.status).toBe(302);
    const fourth = saved.headers.get("location")!.split("/")[3]!;
    expect(await usesOf(shared)).toEqual([...uses.map((use) => use.contentId), fourth].sort());
    expect((await list("q=pick-")).map((item) => item.name).sort()).toEqual(["pick-narrow.png", "pick-shared.png"]);

    // Replaced once: every use names the item, whose newest version is the new file.
    const replaced = await postMultipart(
      `/media/${shared}`,
      [],
      [{ field: "file", name: "pick-new.png", data: await pngOfSize(240, 160) }],
    );
    expect(replaced.status).toBe(302);
    for (const document of [...uses.map((use) => use.contentId), fourth]) {
      const { rows } = await server.db.query<{ data: string }>(
        "SELECT v.data::text AS data FROM contents c JOIN versions v ON v.version_id = c.latest_version_id WHERE c.content_id = $1",
        [document],
      );
      expect(rows[0]!.data).toContain(shared);
    }
    const latest = await (await get(server.url, `/api/v1/buckets/image/content/${shared}/latest`, cookie)).json();
    expect(latest).toMatchObject({ originalFilename: "pick-new.png", dimensions: { width: 240, height: 160 } });
    expect((await list("q=pick-new"))[0]).toMatchObject({ uses: 4 });
  });

  it("the editor warns of an image without an alternative text in a locale of its bucket, until it is described", async () => {
    const image = await uploadImage(exhibitions, "warn-harbour.png");
    const document = await save(exhibitions, { title: "Warned", image });
    const path = `/b/${exhibitions.slug}/${document.contentId}/latest`;
    const field = (html: string) =>
      html.slice(html.indexOf('data-media-kind="image"'), html.indexOf("</fieldset>", html.indexOf('data-media-kind="image"')));
    expect(decode(field((await page(server.url, path, cookie)).html))).toContain(
      "No alternative text in EN, NL: exhibits cannot describe this image.",
    );
    const latest = async () =>
      (await (await get(server.url, `/api/v1/buckets/image/content/${image}/latest`, cookie)).json()) as { missingAlt?: string[] };
    expect((await latest()).missingAlt).toEqual(["en", "nl"]);

    await describeMediaItem(server.db, await bucketsOf(), image, { alt: { en: "A harbour" }, caption: {}, credits: "" });
    expect(decode(field((await page(server.url, path, cookie)).html))).toContain("No alternative text in NL");
    await describeMediaItem(server.db, await bucketsOf(), image, { alt: { en: "A harbour", nl: "Een haven" }, caption: {}, credits: "" });
    expect(decode((await page(server.url, path, cookie)).html)).not.toContain("No alternative text");
    expect((await latest()).missingAlt).toBeUndefined();
  });

  it("a choice that is not the user's, or expired, says so; a field that is no media field does not open the library", async () => {
    const left = await postForm(
      server.url,
      `/b/${exhibitions.slug}/new`,
      { __contentId: "", __baseVersionId: "", title: "Mine", __chooseFromLibrary: "image" },
      cookie,
    );
    const pickPath = left.headers.get("location")!;
    const other = (await signedInUser(server.url, server.db)).cookie;
    const foreign = await page(server.url, pickPath, other);
    expect(foreign.status).toBe(404);
    expect(decode(foreign.html)).toContain("This choice is no longer open");
    const token = new URL(pickPath, server.url).searchParams.get("pick")!;
    expect(
      (await postForm(server.url, "/media", { intent: "pick", pick: token, item: "7d0c5e2e-95c9-4a41-9d5f-0c7f1b0c0e11" }, other)).status,
    ).toBe(404);
    expect((await page(server.url, "/media?pick=AAAAAAAAAAAAAAAAAAAAAAAA", cookie)).status).toBe(404);
    const notMedia = await postForm(
      server.url,
      `/b/${exhibitions.slug}/new`,
      { __contentId: "", __baseVersionId: "", title: "Mine", __chooseFromLibrary: "title" },
      cookie,
    );
    expect(notMedia.status).toBe(400);
  });
});

/** A urlencoded post whose fields may repeat (the list's checkboxes). */
function postFields(path: string, fields: Array<[string, string]>) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, ...sameOrigin(server.url) },
    body: new URLSearchParams(fields),
  });
}

describe("the library's texts in the delivery API", () => {
  it("answers an item's alternative text and caption per locale, or in the locale asked for, and its credits", async () => {
    const image = await uploadImage(exhibitions, "delivery-dunes.png");
    const doc = await save(exhibitions, { title: "Dunes", image });
    await publishNewest(server.db, exhibitions.id, doc.contentId);
    await describeMediaItem(server.db, await bucketsOf(), image, {
      alt: { en: "Dunes under a grey sky", nl: "" },
      caption: { en: "The dunes", nl: "De duinen" },
      credits: "© Duinmuseum",
    });
    const { token } = await deliveryClient(server.db, { read: [exhibitions.slug] });
    const path = `/api/v1/delivery/buckets/${exhibitions.slug}/documents/${doc.contentId}`;
    const every = await json<Doc>(await deliver(server.url, path, token));
    expect(every.data.image).toMatchObject({
      contentId: image,
      alt: { en: "Dunes under a grey sky" },
      caption: { en: "The dunes", nl: "De duinen" },
      credits: "© Duinmuseum",
    });
    // Dutch asked for: the caption in Dutch, the alternative text from the chain's next locale (nobody wrote it in Dutch).
    const dutch = await json<Doc>(await deliver(server.url, `${path}?locale=nl`, token));
    expect(dutch.data.image).toMatchObject({ alt: "Dunes under a grey sky", caption: "De duinen", credits: "© Duinmuseum" });
    const onlyDutch = await json<Doc>(await deliver(server.url, `${path}?locale=nl&fallback=nl`, token));
    expect(onlyDutch.data.image).toMatchObject({ alt: null, caption: "De duinen" });

    // New texts are a new answer: the ETag an app revalidates with no longer matches.
    const etag = (await deliver(server.url, path, token)).headers.get("etag")!;
    expect((await deliver(server.url, path, token, { "If-None-Match": etag })).status).toBe(304);
    await describeMediaItem(server.db, await bucketsOf(), image, { alt: { en: "Dunes at dawn" }, caption: {}, credits: "" });
    const changed = await deliver(server.url, path, token, { "If-None-Match": etag });
    expect(changed.status).toBe(200);
    expect((await json<Doc>(changed)).data.image).toMatchObject({ alt: { en: "Dunes at dawn" } });
  });
});
