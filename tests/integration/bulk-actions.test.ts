import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent } from "@server/content/store";
import type { User } from "@server/accounts/users";
import { createTestBucket, decode, page, seedDocuments, signedInUser } from "@tests/support/fixtures";
import { sameOrigin } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * Bulk actions (issue 34), without JavaScript: the overview's bar and row boxes, the bulk page's GET (what it will
 * do, with the where-used of a delete) and its post. A change of one field is a validated save per document: the
 * documents it would make invalid are listed and left as they were, the others saved as new versions.
 */

let server: TestServer;
let cookie: string;
let user: User;

const SCHEMA = {
  type: "object",
  "title-key": "title",
  properties: {
    ref: { type: "string", title: "Inventory number" },
    title: { type: "string", title: "Title", translate: true },
    room: { type: "string", title: "Room", enum: ["Hall 1", "Hall 2", "Garden"] },
    year: { type: "integer", title: "Year" },
    weatherproof: { type: "boolean", title: "Weatherproof" },
  },
  // What stands in the garden must stand the weather.
  if: { properties: { room: { const: "Garden" } }, required: ["room"] },
  then: { required: ["weatherproof"] },
};

const buckets: Bucket[] = [];
async function newBucket(name: string, jsonSchema: Record<string, unknown> = SCHEMA, slug?: string): Promise<Bucket> {
  const bucket = await createTestBucket(server.db, { name, locales: ["nl", "en"], jsonSchema, ...(slug ? { slug } : {}) });
  buckets.push(bucket);
  ({ cookie, user } = await signedInUser(server.url, server.db, { buckets: buckets.map((each) => each.slug) }));
  return bucket;
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
});

/** A post from the bulk page, whose address holds what the overview's bar asked (the body has the value too). */
function post(path: string, fields: Array<[string, string]>) {
  const asked = new URLSearchParams(fields.filter(([name]) => name !== "value"));
  return fetch(`${server.url}${path}?${asked}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, ...sameOrigin(server.url) },
    body: new URLSearchParams(fields),
  });
}

const query = (fields: Array<[string, string]>) => new URLSearchParams(fields).toString();

async function documentsOf(bucket: Bucket) {
  const { rows } = await server.db.query<{ contentId: string; data: Record<string, unknown>; versions: number; author: string | null }>(
    `SELECT c.content_id AS "contentId", v.data, v.created_by AS author,
            (SELECT count(*)::int FROM versions w WHERE w.content_id = c.content_id) AS versions
     FROM contents c JOIN versions v ON v.version_id = c.latest_version_id WHERE c.bucket_id = $1 ORDER BY c.created_at, c.content_id`,
    [bucket.id],
  );
  return rows;
}

const text = (html: string) => decode(html.replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ");

describe("bulk actions in the overview (issue 34)", () => {
  it("sets a field of 1,000 documents: 997 saved as new versions, the 3 it would make invalid listed and left as they were", async () => {
    const bucket = await newBucket("Bulk garden");
    await seedDocuments(
      server.db,
      bucket.id,
      1000,
      `jsonb_strip_nulls(jsonb_build_object('ref', 'R-' || n, 'title', jsonb_build_object('nl', 'Werk ' || n), 'room', 'Hall 1',
         'weatherproof', CASE WHEN n > 3 THEN true END))`,
    );
    const response = await post(`/b/${bucket.slug}/bulk`, [
      ["action", "set"],
      ["scope", "all"],
      ["field", "room"],
      ["value", "Garden"],
    ]);
    expect(response.status).toBe(200);
    const report = text(await response.text());
    expect(report).toContain("997 documents changed.");
    expect(report).toContain("3 documents skipped, left unchanged:");
    for (const title of ["Werk 1", "Werk 2", "Werk 3"]) expect(report).toContain(title);
    expect(report).not.toContain("Werk 4 ");
    expect(report).toContain("Werk 1 Weatherproof:");

    const documents = await documentsOf(bucket);
    const garden = documents.filter((document) => document.data.room === "Garden");
    expect(garden).toHaveLength(997);
    expect(garden.every((document) => document.versions === 2 && document.author === user.id)).toBe(true);
    const left = documents.filter((document) => document.data.room !== "Garden");
    expect(left.map((document) => (document.data.title as { nl: string }).nl).sort()).toEqual(["Werk 1", "Werk 2", "Werk 3"]);
    expect(left.every((document) => document.versions === 1 && document.data.room === "Hall 1")).toBe(true);
    const { rows: activity } = await server.db.query<{ details: Record<string, unknown> }>(
      `SELECT details FROM admin_activity WHERE action = 'bulkChanged' AND subject = $1`,
      [bucket.slug],
    );
    expect(activity).toEqual([{ details: { field: "room", changed: 997, skipped: 3 } }]);

    // The same change again: nothing to save.
    const again = text(
      await (
        await post(`/b/${bucket.slug}/bulk`, [
          ["action", "set"],
          ["scope", "all"],
          ["field", "room"],
          ["value", "Garden"],
        ])
      ).text(),
    );
    expect(again).toContain("0 documents changed.");
    expect(again).toContain("997 documents already had this value.");
  });

  it("lists a box per row and the bar; the bulk page names the ticked documents and sets a translated field and a number", async () => {
    const bucket = await newBucket("Bulk rooms");
    const first = await createContent(server.db, bucket.id, { ref: "A-1", title: { nl: "Nachtwacht" }, room: "Hall 1" }, null);
    const second = await createContent(server.db, bucket.id, { ref: "A-2", title: { nl: "Melkmeisje" }, room: "Hall 1" }, null);
    const third = await createContent(server.db, bucket.id, { ref: "A-3", title: { nl: "Bruidje" }, room: "Hall 1" }, null);

    const overview = await page(server.url, `/b/${bucket.slug}`, cookie);
    expect(overview.html).toContain(`action="/b/${bucket.slug}/bulk"`);
    const boxes = overview.html.match(/<input type="checkbox"[^>]*>/g) ?? [];
    expect(boxes).toHaveLength(3);
    const box = boxes.find((each) => each.includes(`value="${first.contentId}"`));
    expect(box).toContain('form="overview-bulk"');
    expect(box).toContain('aria-label="Select Nachtwacht"');
    expect(box).toContain('name="id"');
    for (const id of [first, second, third].map((document) => document.contentId))
      expect(overview.html).toContain(`name="page" value="${id}"`);

    const ticked: Array<[string, string]> = [
      ["scope", "ticked"],
      ["id", first.contentId],
      ["id", third.contentId],
    ];
    const choose = await page(server.url, `/b/${bucket.slug}/bulk?${query([["action", "set"], ...ticked])}`, cookie);
    expect(choose.status).toBe(200);
    expect(text(choose.html)).toContain("2 documents selected: Nachtwacht Bruidje");
    expect(choose.html).toContain('<option value="title.nl">Title (nl)</option>');
    expect(choose.html).not.toContain('name="value"');

    // The chosen field's own input: the enum's values.
    const chosen = await page(server.url, `/b/${bucket.slug}/bulk?${query([["action", "set"], ...ticked, ["field", "room"]])}`, cookie);
    expect(chosen.html).toContain('<option value="Garden">Garden</option>');

    const moved = text(
      await (await post(`/b/${bucket.slug}/bulk`, [["action", "set"], ...ticked, ["field", "room"], ["value", "Hall 2"]])).text(),
    );
    expect(moved).toContain("2 documents changed.");
    const english = await post(`/b/${bucket.slug}/bulk`, [
      ["action", "set"],
      ["scope", "page"],
      ["page", second.contentId],
      ["field", "title.en"],
      ["value", "Milkmaid"],
    ]);
    expect(text(await english.text())).toContain("1 document changed.");
    const year = await post(`/b/${bucket.slug}/bulk`, [["action", "set"], ...ticked, ["field", "year"], ["value", "1642"]]);
    expect(text(await year.text())).toContain("2 documents changed.");

    const data = Object.fromEntries((await documentsOf(bucket)).map((document) => [document.contentId, document.data]));
    expect(data[first.contentId]).toEqual({ ref: "A-1", title: { nl: "Nachtwacht" }, room: "Hall 2", year: 1642 });
    expect(data[second.contentId]).toEqual({ ref: "A-2", title: { nl: "Melkmeisje", en: "Milkmaid" }, room: "Hall 1" });
    expect(data[third.contentId]).toEqual({ ref: "A-3", title: { nl: "Bruidje" }, room: "Hall 2", year: 1642 });

    // An empty value clears the field.
    await post(`/b/${bucket.slug}/bulk`, [
      ["action", "set"],
      ["scope", "ticked"],
      ["id", first.contentId],
      ["field", "year"],
      ["value", ""],
    ]);
    expect((await documentsOf(bucket)).find((document) => document.contentId === first.contentId)?.data).not.toHaveProperty("year");
  });

  it("takes every document matching the overview's search, and refuses a value the field cannot take with the input's message", async () => {
    const bucket = await newBucket("Bulk search");
    await createContent(server.db, bucket.id, { ref: "S-1", title: { nl: "Zeegezicht" } }, null);
    await createContent(server.db, bucket.id, { ref: "S-2", title: { nl: "Zeegezicht bij nacht" } }, null);
    const other = await createContent(server.db, bucket.id, { ref: "S-3", title: { nl: "Landschap" } }, null);

    const selected = await page(
      server.url,
      `/b/${bucket.slug}/bulk?${query([
        ["action", "set"],
        ["scope", "all"],
        ["q", "zeegezicht"],
      ])}`,
      cookie,
    );
    expect(text(selected.html)).toContain("2 documents selected:");
    const done = await post(`/b/${bucket.slug}/bulk`, [
      ["action", "set"],
      ["scope", "all"],
      ["q", "zeegezicht"],
      ["field", "room"],
      ["value", "Hall 2"],
    ]);
    expect(text(await done.text())).toContain("2 documents changed.");
    expect((await documentsOf(bucket)).filter((document) => document.data.room === "Hall 2")).toHaveLength(2);
    expect((await documentsOf(bucket)).find((document) => document.contentId === other.contentId)?.data).not.toHaveProperty("room");

    const notANumber = await post(`/b/${bucket.slug}/bulk`, [
      ["action", "set"],
      ["scope", "all"],
      ["field", "year"],
      ["value", "long ago"],
    ]);
    expect(notANumber.status).toBe(422);
    const refusal = text(await notANumber.text());
    expect(refusal).toMatch(/long ago/);
    const unknown = await post(`/b/${bucket.slug}/bulk`, [
      ["action", "set"],
      ["scope", "all"],
      ["field", "colour"],
      ["value", "red"],
    ]);
    expect(unknown.status).toBe(422);
    expect(text(await unknown.text())).toContain("This bucket has no such field.");
    expect((await documentsOf(bucket)).every((document) => document.versions === 1 || document.data.room === "Hall 2")).toBe(true);
  });

  it("deletes the selection after naming the documents elsewhere that refer to it; references within the selection do not count", async () => {
    const artistsSlug = `bulk-artists-${Date.now().toString(36)}`;
    const artists = await newBucket(
      "Bulk artists",
      {
        type: "object",
        "title-key": "name",
        properties: { name: { type: "string", title: "Name" }, teacher: { type: "string", title: "Teacher", _ref: artistsSlug } },
      },
      artistsSlug,
    );
    const works = await newBucket("Bulk works", {
      type: "object",
      "title-key": "title",
      properties: { title: { type: "string", title: "Title" }, artist: { type: "string", title: "Artist", _ref: artists.collectionName } },
    });
    const rembrandt = await createContent(server.db, artists.id, { name: "Rembrandt" }, null);
    const pupil = await createContent(server.db, artists.id, { name: "Dou", teacher: rembrandt.contentId }, null);
    const kept = await createContent(server.db, artists.id, { name: "Vermeer" }, null);
    await createContent(server.db, works.id, { title: "De Nachtwacht", artist: rembrandt.contentId }, null);

    const selection: Array<[string, string]> = [
      ["scope", "ticked"],
      ["id", rembrandt.contentId],
      ["id", pupil.contentId],
    ];
    const confirm = await page(server.url, `/b/${artists.slug}/bulk?${query([["action", "delete"], ...selection])}`, cookie);
    const confirmText = text(confirm.html);
    expect(confirmText).toContain("2 documents selected: Rembrandt Dou");
    expect(confirmText).toContain("The selected documents are used in 1 other document: De Nachtwacht");
    expect(confirmText).not.toMatch(/Dou · /);
    expect(confirm.html).toContain("Delete 2 documents and their versions");

    const deleted = await post(`/b/${artists.slug}/bulk`, [["action", "delete"], ...selection]);
    expect(text(await deleted.text())).toContain("2 documents deleted.");
    expect((await documentsOf(artists)).map((document) => document.contentId)).toEqual([kept.contentId]);
    const { rows } = await server.db.query(`SELECT 1 FROM admin_activity WHERE action = 'deleted' AND details ->> 'bucket' = $1`, [
      artists.slug,
    ]);
    expect(rows).toHaveLength(2);
  });

  it("duplicates the selection, each copy's title marked, the originals as they were", async () => {
    const bucket = await newBucket("Bulk copies");
    const one = await createContent(server.db, bucket.id, { ref: "D-1", title: { nl: "Zelfportret", en: "Self-portrait" } }, null);
    const response = await post(`/b/${bucket.slug}/bulk`, [
      ["action", "duplicate"],
      ["scope", "ticked"],
      ["id", one.contentId],
    ]);
    expect(text(await response.text())).toContain("1 copy made.");
    const documents = await documentsOf(bucket);
    expect(documents.map((document) => document.data)).toEqual([
      { ref: "D-1", title: { nl: "Zelfportret", en: "Self-portrait" } },
      { ref: "D-1", title: { nl: "Zelfportret (kopie)", en: "Self-portrait (copy)" } },
    ]);
  });

  it("says so when nothing is selected or too much, refuses an unknown action, and keeps other buckets' documents out", async () => {
    const bucket = await newBucket("Bulk refusals");
    const elsewhere = await newBucket("Bulk elsewhere");
    const foreign = await createContent(server.db, elsewhere.id, { ref: "F-1" }, null);

    const none = await page(server.url, `/b/${bucket.slug}/bulk?action=delete&scope=ticked`, cookie);
    expect(none.status).toBe(200);
    expect(text(none.html)).toContain("No documents selected.");
    const otherBucket = await post(`/b/${bucket.slug}/bulk`, [
      ["action", "delete"],
      ["scope", "ticked"],
      ["id", foreign.contentId],
    ]);
    expect(text(await otherBucket.text())).toContain("0 documents deleted.");
    expect(await documentsOf(elsewhere)).toHaveLength(1);

    expect((await page(server.url, `/b/${bucket.slug}/bulk?action=rename&scope=all`, cookie)).status).toBe(400);
    expect((await page(server.url, `/b/${bucket.slug}/bulk?action=delete&scope=ticked&id=not-a-uuid`, cookie)).status).toBe(400);

    await seedDocuments(server.db, bucket.id, 10_001, `jsonb_build_object('ref', 'T-' || n)`);
    const tooMany = await page(server.url, `/b/${bucket.slug}/bulk?action=set&scope=all`, cookie);
    expect(text(tooMany.html)).toContain("A bulk action takes at most 10,000 documents.");
    const refused = await post(`/b/${bucket.slug}/bulk`, [
      ["action", "delete"],
      ["scope", "all"],
    ]);
    expect(refused.status).toBe(413);
    expect(await documentsOf(bucket)).toHaveLength(10_001);

    // Without access to the bucket: not found, as its overview.
    const stranger = await signedInUser(server.url, server.db, { buckets: [elsewhere.slug] });
    const hidden = await fetch(`${server.url}/b/${bucket.slug}/bulk?action=delete&scope=all`, {
      headers: { Cookie: stranger.cookie },
      redirect: "manual",
    });
    const overviewStatus = (await fetch(`${server.url}/b/${bucket.slug}`, { headers: { Cookie: stranger.cookie }, redirect: "manual" }))
      .status;
    expect(hidden.status).toBe(overviewStatus);
  });

  it("answers in Dutch for a Dutch user", async () => {
    const bucket = await newBucket("Bulk Dutch");
    const one = await createContent(server.db, bucket.id, { ref: "N-1", title: { nl: "Molen" } }, null);
    const dutch = await signedInUser(server.url, server.db, { buckets: [bucket.slug] });
    const html = (
      await page(server.url, `/b/${bucket.slug}/bulk?action=delete&scope=ticked&id=${one.contentId}`, dutch.cookie, {
        "Accept-Language": "nl",
      })
    ).html;
    expect(text(html)).toContain("1 document geselecteerd: Molen");
    expect(html).toContain("1 document en de versies ervan verwijderen");
  });
});
