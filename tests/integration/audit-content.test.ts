import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "../../server/content/buckets";
import { createContent, getLatestVersion } from "../../server/content/store";
import { createTestBucket } from "../support/fixtures";
import { clientState, decode, page, signedInUser } from "../support/fixtures";
import { cookieFrom, get, postForm, postJson } from "../support/http";
import { startTestServer, type TestServer } from "../support/server";

/*
 * Audit of issue 3 (schema-driven content): the points the other files leave open.
 * - the overview: grid view, the title column (title-key, else the first string property), paging memory per
 *   bucket and in the client state, search, the confirm dialog's cancel and a stale delete;
 * - the JSON API's access rules for any-content, save and DELETE;
 * - 100 parallel saves through the form action (the page, not the API);
 * - translated text arrays: ids and add/remove only for admins and devs;
 * - browser native validation off on the bucket form.
 */

let server: TestServer;
let member: string;
let admin: string;
let restricted: string;
let noUser: string;

beforeAll(async () => {
  server = await startTestServer();
  member = (await signedInUser(server.url, server.db)).cookie;
  admin = (await signedInUser(server.url, server.db, { permissions: ["user", "admin"] })).cookie;
  noUser = (await signedInUser(server.url, server.db, { permissions: ["dev"] })).cookie;
});
afterAll(() => server?.stop());

/** The texts of the title links of the overview (list or grid). */
function overviewTitles(html: string): string[] {
  return [...html.matchAll(/<a[^>]*href="\/b\/[^/"]+\/[0-9a-f-]{36}\/latest"[^>]*>([^<]*)<\/a>/g)].map((match) => decode(match[1]!));
}

const count = async (sql: string, params: unknown[] = []) =>
  (await server.db.query<{ count: number }>(sql, params)).rows[0]!.count;

describe("the overview (spec §2 /b/{bucket})", () => {
  it("titles rows by the schema's title-key, else by the first plain string property, a translated one in the first locale", async () => {
    const keyed = await createTestBucket(server.db, {
      jsonSchema: { type: "object", "title-key": "name", properties: { code: { type: "string" }, name: { type: "string" } } },
    });
    await createContent(server.db, keyed.id, { code: "X-1", name: "Mesdag" }, null);
    expect(overviewTitles((await page(server.url, `/b/${keyed.slug}`, member)).html)).toEqual(["Mesdag"]);

    const firstString = await createTestBucket(server.db, {
      jsonSchema: { type: "object", properties: { opens: { type: "string", format: "date" }, count: { type: "integer" }, role: { type: "string" }, name: { type: "string" } } },
    });
    await createContent(server.db, firstString.id, { opens: "2026-01-01", count: 3, role: "Painter", name: "Breitner" }, null);
    expect(overviewTitles((await page(server.url, `/b/${firstString.slug}`, member)).html)).toEqual(["Painter"]);

    const translated = await createTestBucket(server.db, {
      locales: ["nl", "en"],
      jsonSchema: { type: "object", properties: { title: { type: "string", translate: true } } },
    });
    await createContent(server.db, translated.id, { title: { en: "Sea", nl: "Zee" } }, null);
    expect(overviewTitles((await page(server.url, `/b/${translated.slug}`, member)).html)).toEqual(["Zee"]);
  });

  it("shows a grid after the index view is set to grid through /session/index-view, and the list again after list", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: { type: "object", properties: { name: { type: "string" } } } });
    await createContent(server.db, bucket.id, { name: "Gridded" }, null);
    let { cookie } = await signedInUser(server.url, server.db);
    const listed = await page(server.url, `/b/${bucket.slug}`, cookie);
    expect(listed.html).toContain('<table class="content-table">');
    expect(listed.html).not.toContain('class="content-grid"');

    const grid = await postForm(server.url, "/session/index-view", { view: "grid", redirect_to: `/b/${bucket.slug}` }, cookie);
    cookie = cookieFrom(grid) ?? cookie;
    const gridded = await page(server.url, `/b/${bucket.slug}`, cookie);
    expect(gridded.html).toContain('<ul class="content-grid">');
    expect(gridded.html).not.toContain('<table class="content-table">');
    expect(gridded.html).toMatch(/<button[^>]*value="grid"[^>]*aria-pressed="true"/);
    expect(overviewTitles(gridded.html)).toEqual(["Gridded"]);

    const list = await postJson(server.url, "/session/index-view", { view: "list" }, cookie);
    cookie = cookieFrom(list) ?? cookie;
    expect((await page(server.url, `/b/${bucket.slug}`, cookie)).html).toContain('<table class="content-table">');
  });

  it("remembers the last visited page per bucket and serves it as lastVisitedPageNumber; a search starts at page 1", async () => {
    const schema = { type: "object", properties: { name: { type: "string" } } };
    const first = await createTestBucket(server.db, { jsonSchema: schema });
    const second = await createTestBucket(server.db, { jsonSchema: schema });
    for (let n = 1; n <= 25; n++) {
      await createContent(server.db, first.id, { name: `First ${n}` }, null);
      await createContent(server.db, second.id, { name: `Second ${n}` }, null);
    }
    let { cookie } = await signedInUser(server.url, server.db);
    expect((await clientState((await page(server.url, "/", cookie)).html)).lastVisitedPageNumber).toBe(1);

    const paged = await page(server.url, `/b/${first.slug}?page=2`, cookie);
    cookie = cookieFrom(paged.response) ?? cookie;
    expect(paged.html).toContain("Page 2 of 2");
    expect((await clientState((await page(server.url, "/", cookie)).html)).lastVisitedPageNumber).toBe(2);
    expect((await page(server.url, `/b/${first.slug}`, cookie)).html).toContain("Page 2 of 2");
    expect((await page(server.url, `/b/${first.slug}?page=nonsense`, cookie)).html).toContain("Page 2 of 2");

    // Another bucket does not open on the first bucket's page.
    const other = await page(server.url, `/b/${second.slug}`, cookie);
    expect(other.html).toContain("Page 1 of 2");
    expect(overviewTitles(other.html)[0]).toBe("Second 25");

    // A search starts at its first page, whatever was remembered.
    const searched = await page(server.url, `/b/${first.slug}?q=First%201`, cookie);
    expect(searched.html).toContain("Page 1");
    expect(overviewTitles(searched.html)).toContain("First 19");
  });

  it("finds documents by the text of any field, and says so when nothing matches", async () => {
    const bucket = await createTestBucket(server.db, {
      jsonSchema: { type: "object", properties: { name: { type: "string" }, place: { type: "string" } } },
    });
    await createContent(server.db, bucket.id, { name: "Mesdag", place: "Scheveningen" }, null);
    await createContent(server.db, bucket.id, { name: "Breitner", place: "Amsterdam" }, null);
    expect(overviewTitles((await page(server.url, `/b/${bucket.slug}?q=scheveningen`, member)).html)).toEqual(["Mesdag"]);
    expect(overviewTitles((await page(server.url, `/b/${bucket.slug}?q=50%25`, member)).html)).toEqual([]); // % is literal
    const none = await page(server.url, `/b/${bucket.slug}?q=Rembrandt`, member);
    expect(overviewTitles(none.html)).toEqual([]);
    expect(none.html).toContain("No documents match your search.");
  });

  // The search looks in the document's values (document_search_text, migration 008), not its JSON text.
  it("does not match property names or JSON punctuation, only values", async () => {
    const bucket = await createTestBucket(server.db, {
      jsonSchema: { type: "object", properties: { name: { type: "string" }, place: { type: "string" } } },
    });
    await createContent(server.db, bucket.id, { name: "Mesdag", place: "Scheveningen" }, null);
    for (const query of ["place", "name", '":']) {
      expect(overviewTitles((await page(server.url, `/b/${bucket.slug}?q=${encodeURIComponent(query)}`, member)).html), query).toEqual([]);
    }
  });

  it("offers a cancel in the confirm dialog that closes it, refuses a stale delete with 409 and a message, and a bad request with 400", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: { type: "object", properties: { name: { type: "string" } } } });
    const doc = await createContent(server.db, bucket.id, { name: "Keep me" }, null);
    const dialog = await page(server.url, `/b/${bucket.slug}?page=1&delete=${doc.contentId}`, member);
    expect(dialog.html).toContain('role="alertdialog"');
    expect(dialog.html).toContain("Delete “Keep me” and all its versions?");
    const cancel = /<div class="modal-actions"><a[^>]*href="([^"]*)"[^>]*>Cancel</.exec(dialog.html)?.[1];
    expect(decode(cancel!)).toBe(`/b/${bucket.slug}?page=1`);
    expect((await page(server.url, decode(cancel!), member)).html).not.toContain('role="alertdialog"');

    // Someone saves the document after the dialog opened: the delete from the older version is refused.
    const shownVersion = /name="versionId" value="([^"]+)"/.exec(dialog.html)![1]!;
    await postJson(server.url, `/api/v1/buckets/${bucket.slug}/save`, { content: { contentId: doc.contentId, _id: doc.versionId, name: "Edited" } }, member);
    const stale = await postForm(server.url, `/b/${bucket.slug}?index`, { intent: "delete", contentId: doc.contentId, versionId: shownVersion }, member);
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain("it was not deleted");
    expect(await getLatestVersion(server.db, bucket.id, doc.contentId)).not.toBeNull();

    const bad = await postForm(server.url, `/b/${bucket.slug}?index`, { intent: "drop", contentId: doc.contentId, versionId: shownVersion }, member);
    expect(bad.status).toBe(400);
    expect(await getLatestVersion(server.db, bucket.id, doc.contentId)).not.toBeNull();
  });
});

describe("edit routes", () => {
  it("answer 404 to /b/{bucket}/edit for a bucket that is not a singleton", async () => {
    const bucket = await createTestBucket(server.db);
    expect((await page(server.url, `/b/${bucket.slug}/edit`, member)).status).toBe(404);
  });

  it("duplicate answers 404 for a document that does not exist", async () => {
    const bucket = await createTestBucket(server.db);
    expect((await page(server.url, `/b/${bucket.slug}/duplicate/00000000-0000-4000-8000-000000000000/latest`, member)).status).toBe(404);
  });

  it("turn the browser's native validation off on the bucket form", async () => {
    const bucket = await createTestBucket(server.db, {
      jsonSchema: { type: "object", required: ["name"], properties: { name: { type: "string", maxLength: 5 } } },
    });
    const { html } = await page(server.url, `/b/${bucket.slug}/new`, member);
    const form = /<form[^>]*class="bucket-form"[^>]*>/.exec(html)?.[0] ?? "";
    expect(form).toMatch(/novalidate/i);
    expect(/<input[^>]*name="name"[^>]*>/.exec(html)![0]).not.toMatch(/\brequired\b|maxlength/i);
  });

  it("let exactly one of 100 parallel form saves from one base version win; the rest get 409 with the input kept", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: { type: "object", properties: { name: { type: "string" } } } });
    const base = await createContent(server.db, bucket.id, { name: "Base" }, null);
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, n) =>
        postForm(server.url, `/b/${bucket.slug}/${base.contentId}/latest`, { __contentId: base.contentId, __baseVersionId: base.versionId, name: `Save ${n}` }, member),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 302)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(99);
    const loser = responses.find((response) => response.status === 409)!;
    expect(await loser.text()).toMatch(/name="name"[^>]*value="Save \d+"|value="Save \d+"[^>]*name="name"/);
    await Promise.all(responses.filter((response) => response !== loser).map((response) => response.body?.cancel()));
    expect(await count("SELECT count(*)::int AS count FROM versions WHERE content_id = $1", [base.contentId])).toBe(2);
  });
});

describe("translated text arrays (spec §6: ids, add and remove only for admin or dev)", () => {
  let bucket: Bucket;
  let doc: { contentId: string; versionId: string };
  beforeAll(async () => {
    bucket = await createTestBucket(server.db, {
      locales: ["nl", "en"],
      jsonSchema: { type: "object", properties: { labels: { type: "array", title: "Labels", renderer: "texts" } } },
    });
    doc = await createContent(server.db, bucket.id, { labels: [{ id: "intro", text: { nl: "Welkom", en: "Welcome" } }] }, null);
  });

  /** The HTML of the texts field. */
  const textsField = (html: string) => /data-field="labels"[\s\S]*?<\/fieldset>/.exec(html)![0];

  it("shows a plain user the ids read-only and no add or remove buttons; an admin and a dev may edit, add and remove", async () => {
    const plain = textsField((await page(server.url, `/b/${bucket.slug}/${doc.contentId}/latest`, member)).html);
    expect(/<input[^>]*name="labels\[0\]\.id"[^>]*>/.exec(plain)![0]).toMatch(/readonly|disabled/i);
    expect(plain).not.toContain("<button");
    expect(/<input[^>]*name="labels\[0\]\.text\.en"[^>]*>/.exec(plain)![0]).not.toMatch(/readonly|disabled/i);

    const dev = (await signedInUser(server.url, server.db, { permissions: ["user", "dev"] })).cookie;
    for (const cookie of [admin, dev]) {
      const editable = textsField((await page(server.url, `/b/${bucket.slug}/${doc.contentId}/latest`, cookie)).html);
      expect(/<input[^>]*name="labels\[0\]\.id"[^>]*>/.exec(editable)![0]).not.toMatch(/readonly|disabled/i);
      expect(decode(editable)).toContain('"type":"insert"');
      expect(decode(editable)).toContain('"type":"remove"');
    }
  });

  // Spec §6 holds on the server too (app/lib/content/texts-rule.ts), not only in TextsField's UI.
  it("refuses a plain user's changed id or added entry on the server", async () => {
    const latest = (await getLatestVersion(server.db, bucket.id, doc.contentId))!;
    const refused = await postForm(
      server.url,
      `/b/${bucket.slug}/${doc.contentId}/latest`,
      {
        __contentId: doc.contentId,
        __baseVersionId: latest.versionId,
        "labels[0].id": "hijacked",
        "labels[0].text.nl": "Welkom",
        "labels[0].text.en": "Welcome",
        "labels[1].id": "extra",
        "labels[1].text.en": "Extra",
      },
      member,
    );
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("Only an admin or a developer may change the ids of these texts");
    const stored = (await getLatestVersion(server.db, bucket.id, doc.contentId))!;
    expect((stored.data.labels as Array<{ id: string }>).map((entry) => entry.id)).toEqual(["intro"]);

    // The texts themselves are theirs to edit.
    const edited = await postForm(
      server.url,
      `/b/${bucket.slug}/${doc.contentId}/latest`,
      { __contentId: doc.contentId, __baseVersionId: stored.versionId, "labels[0].id": "intro", "labels[0].text.nl": "Hallo", "labels[0].text.en": "Hello" },
      member,
    );
    expect(edited.status).toBe(302);
    const after = (await getLatestVersion(server.db, bucket.id, doc.contentId))!;
    expect(after.data.labels).toEqual([{ id: "intro", text: { nl: "Hallo", en: "Hello" } }]);
  });
});

describe("JSON API access and rules (spec §6, §7)", () => {
  let artworks: Bucket;
  let artists: Bucket;
  let vault: Bucket;
  beforeAll(async () => {
    artworks = await createTestBucket(server.db, { slug: "audit-artworks", collectionName: "audit-artworks" });
    artists = await createTestBucket(server.db, { slug: "audit-artists", collectionName: "audit-artists" });
    vault = await createTestBucket(server.db, { slug: "audit-vault", collectionName: "audit-vault", private: true });
    restricted = (await signedInUser(server.url, server.db, { buckets: ["audit-artworks"] })).cookie;
  });

  const api = (method: string, path: string, cookie?: string) =>
    fetch(`${server.url}${path}`, { method, headers: cookie ? { Cookie: cookie } : {} });

  describe("GET /api/v1/buckets/any/content?collection=", () => {
    it("lists only that collection's documents, each with contentId, _id and its fields", async () => {
      const work = await createContent(server.db, artworks.id, { title: "Mudflats" }, null);
      await createContent(server.db, artists.id, { title: "Mesdag" }, null);
      const response = await api("GET", "/api/v1/buckets/any/content?collection=audit-artworks", member);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual([{ contentId: work.contentId, _id: work.versionId, title: "Mudflats" }]);
    });

    it("answers 400 without a collection, 404 for an unknown or hidden one, 401 signed out, 403 without the user permission", async () => {
      const missing = await api("GET", "/api/v1/buckets/any/content", member);
      expect(missing.status).toBe(400);
      expect(await missing.json()).toEqual({ error: "collection is required" });
      for (const [collection, cookie] of [["nope", member], ["audit-vault", admin], ["audit-artists", restricted]] as const) {
        const response = await api("GET", `/api/v1/buckets/any/content?collection=${collection}`, cookie);
        expect(response.status, collection).toBe(404);
        expect(await response.json()).toEqual({ error: "No such bucket" });
      }
      expect((await api("GET", "/api/v1/buckets/any/content?collection=audit-artworks")).status).toBe(401);
      expect((await api("GET", "/api/v1/buckets/any/content?collection=audit-artworks", noUser)).status).toBe(403);
      expect((await api("GET", "/api/v1/buckets/any/content?collection=audit-artworks", restricted)).status).toBe(200);
    });
  });

  describe("DELETE /api/v1/buckets/{slug}/content/{contentId}/{_id}", () => {
    it("deletes nothing for a caller who may not: 401 signed out, 403 without the user permission, 404 for a hidden bucket", async () => {
      const hidden = await createContent(server.db, vault.id, { title: "Secret" }, null);
      const excluded = await createContent(server.db, artists.id, { title: "Not yours" }, null);
      const visible = await createContent(server.db, artworks.id, { title: "Visible" }, null);
      const calls: Array<[string, string | undefined, number]> = [
        [`/api/v1/buckets/audit-artworks/content/${visible.contentId}/${visible.versionId}`, undefined, 401],
        [`/api/v1/buckets/audit-artworks/content/${visible.contentId}/${visible.versionId}`, noUser, 403],
        [`/api/v1/buckets/audit-vault/content/${hidden.contentId}/${hidden.versionId}`, admin, 404],
        [`/api/v1/buckets/audit-artists/content/${excluded.contentId}/${excluded.versionId}`, restricted, 404],
      ];
      for (const [path, cookie, status] of calls) {
        const response = await api("DELETE", path, cookie);
        expect(response.status, path).toBe(status);
      }
      for (const [bucket, item] of [[vault, hidden], [artists, excluded], [artworks, visible]] as const) {
        expect(await getLatestVersion(server.db, bucket.id, item.contentId), bucket.slug).not.toBeNull();
      }
      // The same call by someone who may: deleted.
      const allowed = await api("DELETE", `/api/v1/buckets/audit-artworks/content/${visible.contentId}/${visible.versionId}`, restricted);
      expect(allowed.status).toBe(204);
      expect(await getLatestVersion(server.db, artworks.id, visible.contentId)).toBeNull();
    });

    it("does not delete another bucket's document through this bucket's slug", async () => {
      const other = await createContent(server.db, artists.id, { title: "Elsewhere" }, null);
      const response = await api("DELETE", `/api/v1/buckets/audit-artworks/content/${other.contentId}/${other.versionId}`, member);
      expect(response.status).toBe(404);
      expect(await getLatestVersion(server.db, artists.id, other.contentId)).not.toBeNull();
    });

    it("answers only DELETE on that path with a change (a POST is refused and deletes nothing)", async () => {
      const doc = await createContent(server.db, artworks.id, { title: "Stay" }, null);
      const response = await api("POST", `/api/v1/buckets/audit-artworks/content/${doc.contentId}/${doc.versionId}`, member);
      expect(response.status).toBe(405);
      expect(await getLatestVersion(server.db, artworks.id, doc.contentId)).not.toBeNull();
    });
  });

  describe("POST /api/v1/buckets/{slug}/save", () => {
    it("refuses a collection that is not the bucket's with 400, writing nothing", async () => {
      const before = await count("SELECT count(*)::int AS count FROM versions");
      const response = await postJson(server.url, "/api/v1/buckets/audit-artworks/save", { content: { title: "x" }, collection: "audit-artists" }, member);
      expect(response.status).toBe(400);
      expect((await response.json()).error).toContain("does not belong");
      expect(await count("SELECT count(*)::int AS count FROM versions")).toBe(before);
    });

    it("does not save onto another bucket's document through this bucket's slug", async () => {
      const other = await createContent(server.db, artists.id, { title: "Theirs" }, null);
      const response = await postJson(
        server.url,
        "/api/v1/buckets/audit-artworks/save",
        { content: { contentId: other.contentId, _id: other.versionId, title: "Mine now" }, collection: "audit-artworks" },
        member,
      );
      expect(response.status).toBe(404);
      expect((await getLatestVersion(server.db, artists.id, other.contentId))!.data).toEqual({ title: "Theirs" });
    });

    it("answers 403 without the user permission, writing nothing", async () => {
      const before = await count("SELECT count(*)::int AS count FROM versions");
      const response = await postJson(server.url, "/api/v1/buckets/audit-artworks/save", { content: { title: "x" } }, noUser);
      expect(response.status).toBe(403);
      expect(await count("SELECT count(*)::int AS count FROM versions")).toBe(before);
    });
  });
});
