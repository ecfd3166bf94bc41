import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeApiClient } from "@server/accounts/api-clients";
import type { Bucket } from "@server/content/buckets";
import { createPublished, savePublished } from "@tests/support/publishing";
import { createTestBucket } from "@tests/support/fixtures";
import { deliver, deliveryClient, expectProblem, json, type Doc } from "@tests/support/delivery";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The delivery read API (/api/v1/delivery/…, docs/delivery.md): scopes, locales and fallbacks, populate depth and
 * cycles, paging and filters, ETag/304, CORS, bad input and tokens.
 */

let server: TestServer;
const unique = Date.now().toString(36);
let exhibits: Bucket;
let artists: Bucket;
let vault: Bucket;
let other: Bucket;
let home: Bucket;
let paged: Bucket;
/** Reads exhibits, artists, home and paged. */
let tokenA: string;
/** Reads exhibits and the private vault. */
let tokenB: string;
const ids: Record<string, string> = {};

const create = async (bucket: Bucket, data: Record<string, unknown>) => (await createPublished(server.db, bucket.id, data, null)).contentId;

beforeAll(async () => {
  server = await startTestServer();
  artists = await createTestBucket(server.db, {
    slug: `artists-${unique}`,
    collectionName: `artists-${unique}`,
    locales: ["en", "nl"],
    jsonSchema: {
      type: "object",
      properties: {
        name: { type: "string" },
        bio: { type: "string", translate: true },
        mentor: { type: "string", _ref: `artists-${unique}` },
      },
    },
  });
  vault = await createTestBucket(server.db, { slug: `vault-${unique}`, collectionName: `vault-${unique}`, private: true });
  other = await createTestBucket(server.db, { slug: `other-${unique}`, collectionName: `other-${unique}` });
  exhibits = await createTestBucket(server.db, {
    slug: `exhibits-${unique}`,
    collectionName: `exhibits-${unique}`,
    locales: ["nl", "en"],
    jsonSchema: {
      type: "object",
      properties: {
        title: { type: "string", title: "Title", translate: true },
        subtitle: { type: "string", translate: true },
        year: { type: "integer" },
        artist: { type: "string", _ref: `artists-${unique}` },
        related: { type: "array", items: { type: "string", _ref: `exhibits-${unique}` } },
        secret: { type: "string", _ref: `vault-${unique}` },
        elsewhere: { type: "string", _ref: `other-${unique}` },
        notes: { type: "array", renderer: "texts" },
        rooms: { type: "array", items: { type: "object", properties: { name: { type: "string", translate: true } } } },
      },
    },
  });
  home = await createTestBucket(server.db, { slug: `home-${unique}`, collectionName: `home-${unique}`, singleton: true });
  paged = await createTestBucket(server.db, {
    slug: `paged-${unique}`,
    collectionName: `paged-${unique}`,
    jsonSchema: {
      type: "object",
      properties: { title: { type: "string" }, rank: { type: "integer" }, tags: { type: "array", items: { type: "string" } } },
    },
  });

  ids.a2 = await create(artists, { name: "Mentor", bio: { en: "Taught" } });
  ids.a1 = await create(artists, { name: "Rembrandt", bio: { en: "Painter", nl: "Schilder" }, mentor: ids.a2 });
  await server.db.query(`UPDATE versions SET data = jsonb_set(data, '{mentor}', to_jsonb($1::text)) WHERE content_id = $2`, [
    ids.a1,
    ids.a2,
  ]);
  ids.secret = await create(vault, { title: "Hidden" });
  ids.other = await create(other, { title: "Elsewhere" });
  ids.e2 = await create(exhibits, { title: { nl: "Zonnebloemen", en: "Sunflowers" }, year: 1888 });
  ids.e1 = await create(exhibits, {
    title: { nl: "De Nachtwacht", en: "The Night Watch" },
    subtitle: { nl: "", en: "Only in English" },
    year: 1642,
    artist: ids.a1,
    secret: ids.secret,
    elsewhere: ids.other,
    notes: [
      { id: "intro", text: { nl: "", en: "Hello" } },
      { id: "outro", text: { nl: "Dag", en: "Bye" } },
    ],
    rooms: [{ name: { nl: "Eregalerij", en: "Gallery of Honour" } }, { name: { en: "Attic" } }],
  });
  await server.db.query(
    `UPDATE versions SET data = jsonb_set(data, '{related}', jsonb_build_array($1::text, $2::text)) WHERE content_id = $1`,
    [ids.e1, ids.e2],
  );
  ids.home = await create(home, { title: "Welcome" });

  ({ token: tokenA } = await deliveryClient(server.db, {
    read: [exhibits.slug, artists.slug, home.slug, paged.slug],
    origins: ["https://kiosk.example"],
  }));
  ({ token: tokenB } = await deliveryClient(server.db, { read: [exhibits.slug, vault.slug] }));
});
afterAll(() => server.stop());

const get = (path: string, token: string | null = tokenA, headers: Record<string, string> = {}) =>
  deliver(server.url, `/api/v1/delivery${path}`, token, headers);
const documentOf = async (path: string, token = tokenA) => json<Doc>(await get(path, token));

describe("scopes: a client reads its buckets only", () => {
  it("lists the buckets it reads, with their normalised schemas, and no others", async () => {
    const { items } = await json<{
      items: Array<{ slug: string; locales: string[]; schema: { properties: Record<string, { properties?: object }> } }>;
    }>(await get("/buckets"));
    expect(items.map((bucket) => bucket.slug).sort()).toEqual([artists.slug, exhibits.slug, home.slug, paged.slug].sort());
    const exhibitsItem = items.find((bucket) => bucket.slug === exhibits.slug)!;
    expect(exhibitsItem.locales).toEqual(["nl", "en"]);
    // Normalised: the translated title is an object of one property per locale.
    expect(Object.keys(exhibitsItem.schema.properties.title?.properties ?? {})).toEqual(["nl", "en"]);
    const { items: itemsB } = await json<{ items: Array<{ slug: string; private: boolean }> }>(await get("/buckets", tokenB));
    expect(itemsB.map((bucket) => bucket.slug).sort()).toEqual([exhibits.slug, vault.slug].sort());
    expect(itemsB.find((bucket) => bucket.slug === vault.slug)?.private).toBe(true);
  });

  it("answers 404 for a bucket not given to it, private or not, as for one that does not exist", async () => {
    for (const slug of [other.slug, vault.slug, "no-such-bucket"]) {
      await expectProblem(await get(`/buckets/${slug}/documents`), 404);
      await expectProblem(await get(`/buckets/${slug}/documents/${ids.e1}`), 404);
    }
    await expectProblem(await get(`/buckets/${other.slug}/documents/${ids.other}`), 404);
    // The private bucket given to a client is read like any other.
    expect((await documentOf(`/buckets/${vault.slug}/documents/${ids.secret}`, tokenB)).data).toEqual({ title: "Hidden" });
  });

  it("never answers a document of another bucket through a bucket it reads", async () => {
    await expectProblem(await get(`/buckets/${exhibits.slug}/documents/${ids.other}`), 404);
    await expectProblem(await get(`/buckets/${exhibits.slug}/documents/not-a-uuid`), 404);
  });

  it("answers for an old slug of a renamed bucket, and still 404 for one not given to the client", async () => {
    await server.db.query("INSERT INTO bucket_slug_redirects (old_slug, bucket_id) VALUES ($1, $2), ($3, $4)", [
      `old-home-${unique}`,
      home.id,
      `old-other-${unique}`,
      other.id,
    ]);
    expect(await documentOf(`/buckets/old-home-${unique}/documents/${ids.home}`)).toMatchObject({
      bucket: home.slug,
      data: { title: "Welcome" },
    });
    expect((await json<{ items: Doc[] }>(await get(`/buckets/old-home-${unique}/documents`))).items).toHaveLength(1);
    await expectProblem(await get(`/buckets/old-other-${unique}/documents/${ids.other}`), 404);
    await expectProblem(await get(`/buckets/old-home-${unique}/documents/${ids.other}`), 404);
  });

  it("answers the singleton's document, and 404 for a bucket that is no singleton", async () => {
    const doc = await documentOf(`/buckets/${home.slug}/singleton`);
    expect(doc).toMatchObject({ contentId: ids.home, bucket: home.slug, data: { title: "Welcome" } });
    await expectProblem(await get(`/buckets/${exhibits.slug}/singleton`), 404);
  });
});

describe("the OpenAPI document", () => {
  it("describes the client's buckets only, each as components, with references into unread buckets typed as ids", async () => {
    const document = await json<{
      openapi: string;
      paths: Record<string, unknown>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    }>(await get("/openapi.json"));
    expect(document.openapi).toBe("3.1.0");
    const names = Object.keys(document.components.schemas);
    const exhibitsName = `Exhibits${unique[0]!.toUpperCase()}${unique.slice(1)}`;
    for (const suffix of ["", "Localized", "Document", "LocalizedDocument", "Page", "LocalizedPage"])
      expect(names).toContain(`${exhibitsName}${suffix}`);
    expect(names.some((name) => name.startsWith("Vault") || name.startsWith("Other"))).toBe(false);
    expect(Object.keys(document.paths)).toContain(`/api/v1/delivery/buckets/${home.slug}/singleton`);
    expect(Object.keys(document.paths).some((path) => path.includes(vault.slug) || path.includes(other.slug))).toBe(false);
    const properties = document.components.schemas[`${exhibitsName}Localized`]!.properties!;
    expect(properties.secret).toEqual({ type: "string", format: "uuid" });
    expect(properties.artist).toEqual({
      anyOf: [
        { type: "string", format: "uuid" },
        { $ref: `#/components/schemas/Artists${unique[0]!.toUpperCase()}${unique.slice(1)}LocalizedDocument` },
      ],
    });
    expect(properties.title).toEqual({ title: "Title", anyOf: [{ type: "string" }, { type: "null" }] });
    // Client B reads the private vault: it is described for B.
    const forB = await json<{ components: { schemas: Record<string, unknown> } }>(await get("/openapi.json", tokenB));
    expect(Object.keys(forB.components.schemas)).toContain(`Vault${unique[0]!.toUpperCase()}${unique.slice(1)}`);
  });
});

describe("tokens", () => {
  it("refuses a missing, malformed, unknown, revoked or expired token with 401 and WWW-Authenticate: Bearer", async () => {
    const { client: revoked, token: revokedToken } = await deliveryClient(server.db, { read: [exhibits.slug] });
    const { token: expiredToken } = await deliveryClient(server.db, { read: [exhibits.slug], expiresAt: new Date(Date.now() - 60_000) });
    expect((await get("/buckets", revokedToken)).status).toBe(200);
    await revokeApiClient(server.db, { id: null as unknown as string, name: "test" }, revoked.id);
    const unknown = `${crypto.randomUUID()}.${"A".repeat(43)}`;
    for (const token of [null, "", "not-a-token", unknown, revokedToken, expiredToken]) {
      const response = await get(`/buckets/${exhibits.slug}/documents`, token);
      await expectProblem(response, 401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer /);
    }
  });
});

describe("locales and fallbacks", () => {
  it("answers every locale without `locale`: the stored per-locale objects", async () => {
    const doc = await documentOf(`/buckets/${exhibits.slug}/documents/${ids.e1}`);
    expect(doc.locale).toBeNull();
    expect(doc.fallbacks).toEqual({});
    expect(doc.data.title).toEqual({ nl: "De Nachtwacht", en: "The Night Watch" });
    expect(doc.data.notes).toEqual([
      { id: "intro", text: { nl: "", en: "Hello" } },
      { id: "outro", text: { nl: "Dag", en: "Bye" } },
    ]);
  });

  it("answers plain values in the locale, falling back along the bucket's locale order, and lists the fields that fell back", async () => {
    const doc = await documentOf(`/buckets/${exhibits.slug}/documents/${ids.e1}?locale=nl`);
    expect(doc.locale).toBe("nl");
    expect(doc.data).toMatchObject({ title: "De Nachtwacht", subtitle: "Only in English", year: 1642 });
    expect(doc.data.notes).toEqual([
      { id: "intro", text: "Hello" },
      { id: "outro", text: "Dag" },
    ]);
    expect(doc.data.rooms).toEqual([{ name: "Eregalerij" }, { name: "Attic" }]);
    expect(doc.fallbacks).toEqual({ subtitle: "en", "notes[0].text": "en", "rooms[1].name": "en" });
    const english = await documentOf(`/buckets/${exhibits.slug}/documents/${ids.e1}?locale=en`);
    expect(english.data).toMatchObject({ title: "The Night Watch", subtitle: "Only in English" });
    expect(english.fallbacks).toEqual({});
  });

  it("follows an explicit fallback chain, or none: a value no locale of the chain has is null", async () => {
    const none = await documentOf(`/buckets/${exhibits.slug}/documents/${ids.e1}?locale=nl&fallback=none`);
    expect(none.data).toMatchObject({ title: "De Nachtwacht", subtitle: null });
    expect(none.fallbacks).toEqual({ subtitle: null, "notes[0].text": null, "rooms[1].name": null });
    const chain = await documentOf(`/buckets/${exhibits.slug}/documents/${ids.e1}?locale=nl&fallback=en`);
    expect(chain.data.subtitle).toBe("Only in English");
  });

  it("refuses an unknown locale or fallback with a 400 naming the parameter", async () => {
    await expectProblem(await get(`/buckets/${exhibits.slug}/documents/${ids.e1}?locale=fr`), 400, "locale");
    await expectProblem(await get(`/buckets/${exhibits.slug}/documents?locale=fr`), 400, "locale");
    await expectProblem(await get(`/buckets/${exhibits.slug}/documents/${ids.e1}?locale=nl&fallback=en,de`), 400, "fallback");
    await expectProblem(await get(`/buckets/${exhibits.slug}/documents/${ids.e1}?fallback=en`), 400, "fallback");
  });

  it("answers the problem in the client's Accept-Language", async () => {
    const dutch = await expectProblem(
      await get(`/buckets/${exhibits.slug}/documents?locale=fr`, tokenA, { "Accept-Language": "nl-NL,nl;q=0.9" }),
      400,
      "locale",
    );
    expect(dutch.detail).toContain("is geen taal van deze bucket");
    const english = await expectProblem(
      await get(`/buckets/${exhibits.slug}/documents?locale=fr`, tokenA, { "Accept-Language": "en" }),
      400,
      "locale",
    );
    expect(english.detail).toBe("The locale 'fr' is not one of this bucket's locales (nl, en).");
  });
});

describe("populate: references resolved to a depth, cycles cut, unreadable ones left as ids", () => {
  const path = () => `/buckets/${exhibits.slug}/documents/${ids.e1}`;

  it("leaves references as ids at populate=0 (the default)", async () => {
    const doc = await documentOf(path());
    expect(doc.data).toMatchObject({ artist: ids.a1, related: [ids.e1, ids.e2], secret: ids.secret, elsewhere: ids.other });
  });

  it("resolves one level at populate=1, shaped the same way (locale included), and cuts a document already on the path", async () => {
    const doc = await documentOf(`${path()}?populate=1&locale=nl`);
    const artist = doc.data.artist as Doc;
    expect(artist).toMatchObject({
      contentId: ids.a1,
      bucket: artists.slug,
      locale: "nl",
      data: { name: "Rembrandt", bio: "Schilder", mentor: ids.a2 },
    });
    const [self, sunflowers] = doc.data.related as [string, Doc];
    expect(self).toBe(ids.e1); // the document itself: a cycle stays an id
    expect(sunflowers).toMatchObject({ contentId: ids.e2, data: { title: "Zonnebloemen", year: 1888 } });
    // Not in the client's scope: ids, whatever the depth.
    expect(doc.data.secret).toBe(ids.secret);
    expect(doc.data.elsewhere).toBe(ids.other);
  });

  it("goes deeper at populate=2 and 3, and stops a cycle (a1 → a2 → a1) at the document already on the path", async () => {
    const two = await documentOf(`${path()}?populate=2&locale=en`);
    const mentor = (two.data.artist as Doc).data.mentor as Doc;
    expect(mentor).toMatchObject({ contentId: ids.a2, data: { name: "Mentor", bio: "Taught", mentor: ids.a1 } });
    const three = await documentOf(`${path()}?populate=3&locale=en`);
    expect(((three.data.artist as Doc).data.mentor as Doc).data.mentor).toBe(ids.a1);
    // A fallback inside a referenced document is listed on that document.
    const dutch = await documentOf(`${path()}?populate=2&locale=nl`);
    const dutchMentor = (dutch.data.artist as Doc).data.mentor as Doc;
    expect(dutchMentor.data.bio).toBe("Taught");
    expect(dutchMentor.fallbacks).toEqual({ bio: "en" });
  });

  it("resolves a private bucket's document for the client it was given to, and leaves a bucket it does not read as ids", async () => {
    const doc = await documentOf(`${path()}?populate=1`, tokenB);
    expect(doc.data.secret).toMatchObject({ contentId: ids.secret, bucket: vault.slug, data: { title: "Hidden" } });
    expect(doc.data.artist).toBe(ids.a1);
  });

  it("refuses populate beyond 3, negative or not a number with a 400 naming the parameter", async () => {
    for (const value of ["99", "4", "-1", "abc", "1.5", ""]) await expectProblem(await get(`${path()}?populate=${value}`), 400, "populate");
    await expectProblem(await get(`/buckets/${exhibits.slug}/documents?populate=99`), 400, "populate");
  });
});

describe("the documents of a bucket", () => {
  const made: string[] = [];
  beforeAll(async () => {
    for (let rank = 1; rank <= 7; rank += 1)
      made.push(await create(paged, { title: `Item ${rank}${rank === 4 ? " with needle" : ""}`, rank: 8 - rank }));
  });
  const list = (query = "") => get(`/buckets/${paged.slug}/documents${query}`);

  it("answers newest first, a page at a time, with an opaque cursor until the last page", async () => {
    const all = await json<{ items: Doc[]; nextCursor: string | null }>(await list("?limit=100"));
    expect(all.nextCursor).toBeNull();
    expect(new Set(all.items.map((doc) => doc.contentId))).toEqual(new Set(made));
    const times = all.items.map((doc) => doc.updatedAt);
    expect([...times].sort().reverse()).toEqual(times);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: Doc[]; nextCursor: string | null } = await json(await list(`?limit=3${cursor ? `&cursor=${cursor}` : ""}`));
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.items.map((doc) => doc.contentId));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.items.map((doc) => doc.contentId));
  });

  it("sorts by a property, ascending or descending, and pages along it", async () => {
    const ascending = await json<{ items: Doc[] }>(await list("?sort=rank&limit=100"));
    expect(ascending.items.map((doc) => doc.data.rank)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const first = await json<{ items: Doc[]; nextCursor: string }>(await list("?sort=rank&order=desc&limit=4"));
    expect(first.items.map((doc) => doc.data.rank)).toEqual([7, 6, 5, 4]);
    const second = await json<{ items: Doc[]; nextCursor: string | null }>(
      await list(`?sort=rank&order=desc&limit=4&cursor=${first.nextCursor}`),
    );
    expect(second.items.map((doc) => doc.data.rank)).toEqual([3, 2, 1]);
    expect(second.nextCursor).toBeNull();
    // A translated property sorts by the requested locale.
    const titles = await json<{ items: Doc[] }>(await get(`/buckets/${exhibits.slug}/documents?sort=title&locale=en`));
    expect(titles.items.map((doc) => doc.data.title)).toEqual(["Sunflowers", "The Night Watch"]);
    // A cursor made for another sort order is refused.
    await expectProblem(await list(`?sort=title&cursor=${first.nextCursor}`), 400, "cursor");
  });

  it("filters by text (q) and by updatedSince", async () => {
    const found = await json<{ items: Doc[] }>(await list("?q=NEEDLE"));
    expect(found.items.map((doc) => doc.data.title)).toEqual(["Item 4 with needle"]);
    await server.db.query(`UPDATE contents SET published_at = '2001-01-01T00:00:00Z' WHERE bucket_id = $1 AND content_id <> $2`, [
      paged.id,
      made[0],
    ]);
    const recent = await json<{ items: Doc[] }>(await list("?updatedSince=2020-01-01T00:00:00Z"));
    expect(recent.items.map((doc) => doc.contentId)).toEqual([made[0]]);
    const since = await json<{ items: Doc[] }>(await list("?updatedSince=2001-01-01"));
    expect(since.items).toHaveLength(7);
  });

  it("refuses a malformed cursor, limit, sort, order or updatedSince with a 400 naming the parameter", async () => {
    await expectProblem(await list("?cursor=garbage!"), 400, "cursor");
    await expectProblem(await list(`?cursor=${Buffer.from('{"s":1}').toString("base64url")}`), 400, "cursor");
    await expectProblem(await list("?limit=101"), 400, "limit");
    await expectProblem(await list("?limit=0"), 400, "limit");
    await expectProblem(await list("?sort=tags"), 400, "sort");
    await expectProblem(await list("?sort=nope"), 400, "sort");
    await expectProblem(await list("?order=sideways"), 400, "order");
    await expectProblem(await list("?updatedSince=yesterday"), 400, "updatedSince");
    await expectProblem(await list("?updatedSince=2020-13-45T99:00:00Z"), 400, "updatedSince");
  });
});

describe("caching and CORS", () => {
  it("answers an ETag and Cache-Control, 304 for If-None-Match while unchanged, and a new ETag after a published save", async () => {
    const bucket = await createTestBucket(server.db);
    const { token } = await deliveryClient(server.db, { read: [bucket.slug] });
    const saved = await createPublished(server.db, bucket.id, { title: "First" }, null);
    const path = `/buckets/${bucket.slug}/documents/${saved.contentId}`;
    const first = await get(path, token);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    const again = await get(path, token, { "If-None-Match": etag! });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.text()).toBe("");
    const list = await get(`/buckets/${bucket.slug}/documents`, token);
    const listTag = list.headers.get("etag")!;
    expect((await get(`/buckets/${bucket.slug}/documents`, token, { "If-None-Match": `W/${listTag}, "other"` })).status).toBe(304);
    await savePublished(server.db, {
      bucketId: bucket.id,
      contentId: saved.contentId,
      baseVersionId: saved.versionId,
      data: { title: "Second" },
      userId: null,
    });
    const changed = await get(path, token, { "If-None-Match": etag! });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect(((await changed.json()) as Doc).data.title).toBe("Second");
    expect((await get(`/buckets/${bucket.slug}/documents`, token, { "If-None-Match": listTag })).status).toBe(200);
    for (const other of ["/buckets", "/openapi.json"]) {
      const answer = await get(other, token);
      expect((await get(other, token, { "If-None-Match": answer.headers.get("etag")! })).status).toBe(304);
    }
  });

  it("answers a revalidation of one document from its state: 304 without reading its version", async () => {
    const bucket = await createTestBucket(server.db, { singleton: true });
    const { token } = await deliveryClient(server.db, { read: [bucket.slug] });
    const saved = await createPublished(server.db, bucket.id, { title: "Kept" }, null);
    const paths = [`/buckets/${bucket.slug}/documents/${saved.contentId}?locale=${bucket.locales[0]}`, `/buckets/${bucket.slug}/singleton`];
    const etags: string[] = [];
    for (const path of paths) {
      const etag = (await get(path, token)).headers.get("etag")!;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect((await get(path, token, { "If-None-Match": etag })).status).toBe(304);
      etags.push(etag);
    }
    // A version never changes (no statement updates one): a revalidation names the answer by the version and
    // does not read it. Changed here behind the server's back, the revalidation still answers 304.
    await server.db.query(`UPDATE versions SET data = '{"title":"Changed in place"}' WHERE version_id = $1`, [saved.versionId]);
    for (const [index, path] of paths.entries()) expect((await get(path, token, { "If-None-Match": etags[index]! })).status).toBe(304);
  });

  it("answers a new ETag when anything the answer shows changes: a referenced document, the client's scope, the schema", async () => {
    const makers = await createTestBucket(server.db, { jsonSchema: { type: "object", properties: { name: { type: "string" } } } });
    const works = await createTestBucket(server.db, {
      jsonSchema: { type: "object", properties: { title: { type: "string" }, maker: { type: "string", _ref: makers.collectionName } } },
    });
    const { client, token } = await deliveryClient(server.db, { read: [works.slug, makers.slug] });
    const maker = await createPublished(server.db, makers.id, { name: "First name" }, null);
    const work = await createPublished(server.db, works.id, { title: "A work", maker: maker.contentId }, null);
    const populated = `/buckets/${works.slug}/documents/${work.contentId}?populate=1`;
    const plain = `/buckets/${works.slug}/documents/${work.contentId}`;
    /** The ETag the client holds, checked to revalidate as 304 (so the next revalidation starts from the state). */
    const held = async (path: string) => {
      const etag = (await get(path, token)).headers.get("etag")!;
      expect((await get(path, token, { "If-None-Match": etag })).status).toBe(304);
      return etag;
    };
    const revalidated = (path: string, etag: string) => get(path, token, { "If-None-Match": etag });

    // A referenced document saved: new with populate; the same without (the reference stays an id).
    const before = { populated: await held(populated), plain: await held(plain) };
    await savePublished(server.db, {
      bucketId: makers.id,
      contentId: maker.contentId,
      baseVersionId: maker.versionId,
      data: { name: "Second name" },
      userId: null,
    });
    const changed = await revalidated(populated, before.populated);
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(before.populated);
    expect((((await changed.json()) as Doc).data.maker as Doc).data.name).toBe("Second name");
    expect((await revalidated(plain, before.plain)).status).toBe(304);

    // The client's read scope changed: the referenced bucket is no longer read (the reference stays an id).
    const scoped = { populated: await held(populated), plain: await held(plain) };
    await server.db.query("UPDATE api_clients SET read_buckets = $2 WHERE id = $1", [client.id, [works.slug]]);
    const narrowed = await revalidated(populated, scoped.populated);
    expect(narrowed.status).toBe(200);
    expect(((await narrowed.json()) as Doc).data.maker).toBe(maker.contentId);
    expect((await revalidated(plain, scoped.plain)).status).toBe(200);

    // A new schema version of the bucket (its answer is shaped along it).
    const schemaBefore = await held(plain);
    await server.db.query(
      `WITH s AS (INSERT INTO schema_versions (bucket_id, number, json_schema)
                  VALUES ($1, (SELECT coalesce(max(number), 0) + 1 FROM schema_versions WHERE bucket_id = $1), $2::json) RETURNING id)
       UPDATE buckets SET schema_version_id = (SELECT id FROM s), json_schema = $2::json WHERE id = $1`,
      [works.id, JSON.stringify({ type: "object", properties: { title: { type: "string", translate: true }, maker: { type: "string" } } })],
    );
    const reshaped = await revalidated(plain, schemaBefore);
    expect(reshaped.status).toBe(200);
    expect(reshaped.headers.get("etag")).not.toBe(schemaBefore);
  });

  it("allows the client's origins only: Access-Control-Allow-Origin for them, none for another origin", async () => {
    const allowed = await get(`/buckets/${exhibits.slug}/documents`, tokenA, { Origin: "https://kiosk.example" });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://kiosk.example");
    expect(allowed.headers.get("access-control-expose-headers")).toContain("ETag");
    expect(allowed.headers.get("vary")).toContain("Origin");
    const foreign = await get(`/buckets/${exhibits.slug}/documents`, tokenA, { Origin: "https://evil.example" });
    expect(foreign.status).toBe(200);
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
    // Client B allows no origin.
    expect(
      (await get(`/buckets/${exhibits.slug}/documents`, tokenB, { Origin: "https://kiosk.example" })).headers.get(
        "access-control-allow-origin",
      ),
    ).toBeNull();
  });

  it("answers a preflight for an allowed origin, and none for another", async () => {
    const preflight = (origin: string) =>
      deliver(
        server.url,
        `/api/v1/delivery/buckets/${exhibits.slug}/documents`,
        null,
        { Origin: origin, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization" },
        "OPTIONS",
      );
    const allowed = await preflight("https://kiosk.example");
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://kiosk.example");
    expect(allowed.headers.get("access-control-allow-methods")).toContain("GET");
    expect(allowed.headers.get("access-control-allow-headers")).toMatch(/Authorization/i);
    const foreign = await preflight("https://evil.example");
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("refuses other methods with a 405 problem, and answers unknown delivery paths with a 404 problem", async () => {
    const post = await deliver(server.url, `/api/v1/delivery/buckets/${exhibits.slug}/documents`, tokenA, {}, "POST");
    await expectProblem(post, 405);
    await expectProblem(await get("/nothing/here"), 404);
  });
});
