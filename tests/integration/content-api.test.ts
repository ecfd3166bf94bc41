import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent, getLatestVersion } from "@server/content/store";
import { createTestBucket, signedInUser } from "@tests/support/fixtures";
import { createTestUser, postJson, sameOrigin, signIn } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The JSON API of spec §7: save (create, versions, 409, 422 messages, hostile bodies), list and delete, and who
 * may call what (spec §6): signed out 401, without the user permission 403, a bucket the user may not see 404.
 */

let server: TestServer;
let cookie: string;
let bucket: Bucket;
let hidden: Bucket;

const schema = {
  type: "object",
  required: ["title"],
  properties: {
    title: { type: "string", translate: true, isNotEmpty: true },
    year: { type: "integer", minimum: 1000 },
    code: { type: "string", pattern: "^(a+)+$" },
    rooms: { type: "array", maxItems: 2, items: { type: "object", properties: { name: { type: "string" } } } },
  },
};

function api(path: string, init: Omit<RequestInit, "headers"> & { headers?: Record<string, string> } = {}, withCookie = cookie) {
  return fetch(`${server.url}${path}`, {
    ...init,
    headers: {
      "Content-Type": "application/json",
      ...(withCookie ? { Cookie: withCookie, ...sameOrigin(server.url) } : {}),
      ...init.headers,
    },
  });
}
const save = (content: unknown, slug = bucket.slug) =>
  api(`/api/v1/buckets/${slug}/save`, { method: "POST", body: JSON.stringify({ content, collection: "artworks" }) });

beforeAll(async () => {
  server = await startTestServer();
  bucket = await createTestBucket(server.db, { slug: "artworks", name: "Artworks", collectionName: "artworks", jsonSchema: schema });
  hidden = await createTestBucket(server.db, {
    slug: "secret",
    name: "Secret",
    collectionName: "secret",
    private: true,
    jsonSchema: schema,
  });
  const user = await createTestUser(server.db);
  cookie = await signIn(server.url, user.email, user.password);
});
afterAll(() => server.stop());

const valid = { title: { nl: "Wad", en: "Mudflats" }, year: 1911 };

describe("JSON API: save", () => {
  it("creates a document and answers it with contentId and _id", async () => {
    const response = await save(valid);
    expect(response.status).toBe(201);
    const document = await response.json();
    expect(document).toMatchObject({ ...valid, contentId: expect.any(String), _id: expect.any(String) });
  });

  it("saves a new version on top of the one it started from, and refuses a stale base with 409", async () => {
    const first = await (await save(valid)).json();
    const second = await save({ ...first, year: 1912 });
    expect(second.status).toBe(200);
    const saved = await second.json();
    expect(saved).toMatchObject({ contentId: first.contentId, year: 1912 });
    expect(saved._id).not.toBe(first._id);
    const stale = await save({ ...first, year: 1913 });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ error: "DOCUMENT_VERSION_CONFLICT", latestVersionId: saved._id });
    const latest = await (await api(`/api/v1/buckets/artworks/content/${first.contentId}/latest`)).json();
    expect(latest.year).toBe(1912);
    const old = await (await api(`/api/v1/buckets/artworks/content/${first.contentId}/${first._id}`)).json();
    expect(old.year).toBe(1911);
  });

  it("lets exactly one of 100 parallel saves from one base version win", async () => {
    const base = await (await save(valid)).json();
    const responses = await Promise.all(Array.from({ length: 100 }, (_, index) => save({ ...base, year: 2000 + index })));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(99);
    const { rows } = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM versions WHERE content_id = $1", [
      base.contentId,
    ]);
    expect(rows[0]!.count).toBe(2);
  });

  it("answers 422 with field-level messages in the default locale", async () => {
    const response = await save({ title: { nl: " " }, year: 12, rooms: [{}, {}, {}] });
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.errors["title.nl"]).toEqual(["This field is required"]);
    expect(body.errors["title.en"]).toEqual(["This field is required"]);
    expect(body.errors.rooms).toEqual(["This list can't contain more than 2 item(s)"]);
    expect(body.errors.year).toEqual(["This value should be at least 1000"]);
    expect(body.locales.sort()).toEqual(["en", "nl"]);
  });

  it.each([
    ["unknown properties", { ...valid, colour: "red" }, 422, "colour"],
    ["a wrong type", { ...valid, year: "nineteen" }, 422, "year"],
    ["a 100 kB string against a pattern", { ...valid, code: `${"a".repeat(100_000)}!` }, 422, "code"],
  ])("refuses %s with 422 and writes nothing", async (_name, content, status, field) => {
    const before = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM versions");
    const started = Date.now();
    const response = await save(content);
    expect(response.status).toBe(status);
    expect(Object.keys((await response.json()).errors)).toContain(field);
    expect(Date.now() - started).toBeLessThan(2000);
    const after = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM versions");
    expect(after.rows[0]!.count).toBe(before.rows[0]!.count);
  });

  it.each([
    ["__proto__ at depth", '{"content":{"title":{"nl":"a","en":"b"},"rooms":[{"__proto__":{"polluted":true}}]}}', "__proto__"],
    ["constructor keys", '{"content":{"constructor":{"prototype":{"polluted":true}}}}', "constructor"],
    ["deep nesting", `{"content":{"rooms":${"[".repeat(5000)}${"]".repeat(5000)}}}`, "nested deeper"],
    ["malformed JSON", '{"content":', "not valid JSON"],
  ])("refuses %s with 400 and pollutes nothing", async (_name, body, message) => {
    const response = await api(`/api/v1/buckets/artworks/save`, { method: "POST", body });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toContain(message);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses an oversized body with 413", async () => {
    const response = await save({ ...valid, code: "a".repeat(2 * 1024 * 1024) });
    expect(response.status).toBe(413);
  });

  it("answers 401 without a session and 404 for a bucket the user may not see", async () => {
    const anonymous = await api(`/api/v1/buckets/artworks/save`, { method: "POST", body: JSON.stringify({ content: valid }) }, "");
    expect(anonymous.status).toBe(401);
    const secret = await save(valid, hidden.slug);
    expect(secret.status).toBe(404);
    const list = await api(`/api/v1/buckets/any/content?collection=secret`);
    expect(list.status).toBe(404);
  });
});

describe("JSON API: list and delete", () => {
  it("lists a collection's documents with contentId, newest first", async () => {
    const created = await (await save({ title: { nl: "Nieuw", en: "New" } })).json();
    const response = await api(`/api/v1/buckets/any/content?collection=artworks`);
    expect(response.status).toBe(200);
    const documents = await response.json();
    expect(documents[0]).toMatchObject({ contentId: created.contentId, _id: created._id });
  });

  it("deletes only the latest version's document: stale 409, then 204, then 404", async () => {
    const first = await (await save(valid)).json();
    const second = await (await save({ ...first, year: 1999 })).json();
    const stale = await api(`/api/v1/buckets/artworks/content/${first.contentId}/${first._id}`, { method: "DELETE" });
    expect(stale.status).toBe(409);
    const deleted = await api(`/api/v1/buckets/artworks/content/${first.contentId}/${second._id}`, { method: "DELETE" });
    expect(deleted.status).toBe(204);
    const gone = await api(`/api/v1/buckets/artworks/content/${first.contentId}/latest`);
    expect(gone.status).toBe(404);
    const again = await api(`/api/v1/buckets/artworks/content/${first.contentId}/${second._id}`, { method: "DELETE" });
    expect(again.status).toBe(404);
  });

  it("treats malformed ids as not found", async () => {
    const response = await api(`/api/v1/buckets/artworks/content/not-a-uuid/latest`);
    expect(response.status).toBe(404);
  });
});

describe("JSON API access and rules (spec §6, §7)", () => {
  let artworks: Bucket;
  let artists: Bucket;
  let vault: Bucket;
  let member: string;
  let admin: string;
  let noUser: string;
  let restricted: string;
  beforeAll(async () => {
    artworks = await createTestBucket(server.db, { slug: "access-artworks", collectionName: "access-artworks" });
    artists = await createTestBucket(server.db, { slug: "access-artists", collectionName: "access-artists" });
    vault = await createTestBucket(server.db, { slug: "access-vault", collectionName: "access-vault", private: true });
    member = (await signedInUser(server.url, server.db)).cookie;
    admin = (await signedInUser(server.url, server.db, { permissions: ["user", "admin"] })).cookie;
    noUser = (await signedInUser(server.url, server.db, { permissions: ["dev"] })).cookie;
    restricted = (await signedInUser(server.url, server.db, { buckets: ["access-artworks"] })).cookie;
  });

  /** How many versions the documents of these buckets have, all told. */
  const versionsIn = async (...buckets: Bucket[]) =>
    (
      await server.db.query<{ count: number }>(
        "SELECT count(*)::int AS count FROM versions v JOIN contents c ON c.content_id = v.content_id WHERE c.bucket_id = ANY($1::uuid[])",
        [buckets.map((bucket) => bucket.id)],
      )
    ).rows[0]!.count;

  /** A call with this caller's session only (the file's `api` sends the default user's). */
  const call = (method: string, path: string, cookie?: string) =>
    fetch(`${server.url}${path}`, { method, headers: cookie ? { Cookie: cookie, ...sameOrigin(server.url) } : {} });

  describe("GET /api/v1/buckets/any/content?collection=", () => {
    it("lists only that collection's documents, each with contentId, _id and its fields", async () => {
      const work = await createContent(server.db, artworks.id, { title: "Mudflats" }, null);
      await createContent(server.db, artists.id, { title: "Mesdag" }, null);
      const response = await call("GET", "/api/v1/buckets/any/content?collection=access-artworks", member);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual([{ contentId: work.contentId, _id: work.versionId, title: "Mudflats" }]);
    });

    it("answers 400 without a collection, 404 for an unknown or hidden one, 401 signed out, 403 without the user permission", async () => {
      const missing = await call("GET", "/api/v1/buckets/any/content", member);
      expect(missing.status).toBe(400);
      expect(await missing.json()).toEqual({ error: "collection is required" });
      for (const [collection, cookie] of [
        ["nope", member],
        ["access-vault", admin],
        ["access-artists", restricted],
      ] as const) {
        const response = await call("GET", `/api/v1/buckets/any/content?collection=${collection}`, cookie);
        expect(response.status, collection).toBe(404);
        expect(await response.json()).toEqual({ error: "No such bucket" });
      }
      expect((await call("GET", "/api/v1/buckets/any/content?collection=access-artworks")).status).toBe(401);
      expect((await call("GET", "/api/v1/buckets/any/content?collection=access-artworks", noUser)).status).toBe(403);
      expect((await call("GET", "/api/v1/buckets/any/content?collection=access-artworks", restricted)).status).toBe(200);
    });
  });

  describe("DELETE /api/v1/buckets/{slug}/content/{contentId}/{_id}", () => {
    it("deletes nothing for a caller who may not: 401 signed out, 403 without the user permission, 404 for a hidden bucket", async () => {
      const hidden = await createContent(server.db, vault.id, { title: "Secret" }, null);
      const excluded = await createContent(server.db, artists.id, { title: "Not yours" }, null);
      const visible = await createContent(server.db, artworks.id, { title: "Visible" }, null);
      const calls: Array<[string, string | undefined, number]> = [
        [`/api/v1/buckets/access-artworks/content/${visible.contentId}/${visible.versionId}`, undefined, 401],
        [`/api/v1/buckets/access-artworks/content/${visible.contentId}/${visible.versionId}`, noUser, 403],
        [`/api/v1/buckets/access-vault/content/${hidden.contentId}/${hidden.versionId}`, admin, 404],
        [`/api/v1/buckets/access-artists/content/${excluded.contentId}/${excluded.versionId}`, restricted, 404],
      ];
      for (const [path, cookie, status] of calls) {
        const response = await call("DELETE", path, cookie);
        expect(response.status, path).toBe(status);
      }
      for (const [bucket, item] of [
        [vault, hidden],
        [artists, excluded],
        [artworks, visible],
      ] as const) {
        expect(await getLatestVersion(server.db, bucket.id, item.contentId), bucket.slug).not.toBeNull();
      }
      // The same call by someone who may: deleted.
      const allowed = await call("DELETE", `/api/v1/buckets/access-artworks/content/${visible.contentId}/${visible.versionId}`, restricted);
      expect(allowed.status).toBe(204);
      expect(await getLatestVersion(server.db, artworks.id, visible.contentId)).toBeNull();
    });

    it("does not delete another bucket's document through this bucket's slug", async () => {
      const other = await createContent(server.db, artists.id, { title: "Elsewhere" }, null);
      const response = await call("DELETE", `/api/v1/buckets/access-artworks/content/${other.contentId}/${other.versionId}`, member);
      expect(response.status).toBe(404);
      expect(await getLatestVersion(server.db, artists.id, other.contentId)).not.toBeNull();
    });

    it("answers only DELETE on that path with a change (a POST is refused and deletes nothing)", async () => {
      const doc = await createContent(server.db, artworks.id, { title: "Stay" }, null);
      const response = await call("POST", `/api/v1/buckets/access-artworks/content/${doc.contentId}/${doc.versionId}`, member);
      expect(response.status).toBe(405);
      expect(await getLatestVersion(server.db, artworks.id, doc.contentId)).not.toBeNull();
    });
  });

  describe("POST /api/v1/buckets/{slug}/save", () => {
    it("refuses a collection that is not the bucket's with 400, writing nothing", async () => {
      const before = await versionsIn(artworks, artists);
      const response = await postJson(
        server.url,
        "/api/v1/buckets/access-artworks/save",
        { content: { title: "x" }, collection: "access-artists" },
        member,
      );
      expect(response.status).toBe(400);
      expect((await response.json()).error).toContain("does not belong");
      expect(await versionsIn(artworks, artists)).toBe(before);
    });

    it("does not save onto another bucket's document through this bucket's slug", async () => {
      const other = await createContent(server.db, artists.id, { title: "Theirs" }, null);
      const response = await postJson(
        server.url,
        "/api/v1/buckets/access-artworks/save",
        { content: { contentId: other.contentId, _id: other.versionId, title: "Mine now" }, collection: "access-artworks" },
        member,
      );
      expect(response.status).toBe(404);
      expect((await getLatestVersion(server.db, artists.id, other.contentId))!.data).toEqual({ title: "Theirs" });
    });

    it("answers 403 without the user permission, writing nothing", async () => {
      const before = await versionsIn(artworks, artists);
      const response = await postJson(server.url, "/api/v1/buckets/access-artworks/save", { content: { title: "x" } }, noUser);
      expect(response.status).toBe(403);
      expect(await versionsIn(artworks, artists)).toBe(before);
    });
  });
});
