import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import type { User } from "@server/accounts/users";
import { createTestBucket, signedInUser } from "@tests/support/fixtures";
import { postJson, sameOrigin } from "@tests/support/http";
import { pngOfSize, upload } from "@tests/support/media-fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";
import { libraryBuckets, listLibrary } from "@server/media/library";
import { deleteMediaItems, describeMediaItem, findLibraryItem } from "@server/media/library-item";
import { parseLibraryQuery } from "@core/media/library";

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
  ({ cookie, user } = await signedInUser(server.url, server.db, { buckets: [exhibitions.slug, artworks.slug] }));
});
afterAll(() => server.stop());

async function uploadImage(bucket: Bucket, name: string, width = 120, height = 90, as = cookie): Promise<string> {
  const response = await upload(
    server.url,
    "image",
    as,
    { bucket: bucket.slug, properties: JSON.stringify({ minWidth: 1, minHeight: 1 }) },
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
