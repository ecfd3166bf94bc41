import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBucket, type Bucket } from "../../server/content/buckets";
import { startTestServer, type TestServer } from "../support/server";
import { createTestUser, signIn } from "../support/http";

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

function api(path: string, init: RequestInit = {}, withCookie = cookie) {
  return fetch(`${server.url}${path}`, {
    ...init,
    headers: { "Content-Type": "application/json", ...(withCookie ? { Cookie: withCookie } : {}), ...init.headers },
  });
}
const save = (content: unknown, slug = bucket.slug) =>
  api(`/api/v1/buckets/${slug}/save`, { method: "POST", body: JSON.stringify({ content, collection: "artworks" }) });

beforeAll(async () => {
  server = await startTestServer();
  const base = { singleton: false, private: false, jsonSchema: schema, locales: ["nl", "en"] };
  bucket = await createBucket(server.db, { ...base, slug: "artworks", name: "Artworks", collectionName: "artworks" });
  hidden = await createBucket(server.db, { ...base, slug: "secret", name: "Secret", collectionName: "secret", private: true });
  const user = await createTestUser(server.db);
  cookie = await signIn(server.url, user.email, user.password);
});
afterAll(() => server?.stop());

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
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, index) => save({ ...base, year: 2000 + index })),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(99);
    const { rows } = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM versions WHERE content_id = $1", [base.contentId]);
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
