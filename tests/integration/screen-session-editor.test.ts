import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import type { Bucket } from "@server/content/buckets";
import { createContent } from "@server/content/store";
import { insertMedia } from "@server/media/store";
import { createTestBucket, signedInUser } from "@tests/support/fixtures";
import { fieldErrorText, formErrorText, get, inputValue, postForm, postJson } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The session editor (docs/screens.md) of the sessies and dle-sessies screens: the generic editor's
 * guards and save pipeline (versions, conflicts, CSRF) on its own routes, the cases' Move buttons without
 * JavaScript (Conform's reorder intent: the page comes back with the new order and every input kept), the preview's
 * durations and videos, and a learning session's availability (an end before the start refused, in the form and
 * through the API).
 */

let server: TestServer;
let editor: { cookie: string; user: { id: string } };
let cases: Bucket;
let sessions: Bucket;
let learning: Bucket;
let generic: Bucket;
let hidden: Bucket;
const ids = { harbour: "", tide: "", waiting: "", harbourVideo: "" };

const caseSchema = {
  type: "object",
  required: ["title"],
  properties: {
    title: { type: "string", title: "Title" },
    subtitle: { type: "string", title: "Subtitle" },
    thumbnail: { type: "string", title: "Video", _ref: "b-video" },
  },
};
const casesProperty = {
  type: "array",
  title: "Video cases",
  renderer: "video-cases",
  maxItems: 8,
  items: { type: "string", _ref: "se-cases" },
};
const sessionSchema = {
  type: "object",
  required: ["title"],
  properties: { title: { type: "string", title: "Title" }, cases: casesProperty, note: { type: "string", title: "Note" } },
};
const learningSchema = {
  type: "object",
  required: ["title"],
  properties: {
    title: { type: "string", title: "Title" },
    cases: casesProperty,
    availableFrom: { type: "string", format: "date", title: "Available from" },
    availableUntil: { type: "string", format: "date", title: "Available until" },
  },
};

async function video(name: string, duration: number, done: boolean) {
  const media = await insertMedia(server.db, {
    kind: "video",
    originalFilename: `${name}.mp4`,
    mimetype: "video/mp4",
    size: 4096,
    width: 1280,
    height: 720,
    details: { fps: 25, codec: "h264", duration, stillKeys: done ? [`${randomUUID()}.jpg`] : [], ...(done ? { thumb: { index: 0 } } : {}) },
    bucketId: cases.id,
    storageKey: `${randomUUID()}.mp4`,
    createdBy: editor.user.id,
  });
  // A job still running (leased for an hour: no runner takes it over while the test looks).
  if (!done)
    await server.db.query(
      `INSERT INTO jobs (media_id, name, status, lease_until) VALUES ($1, 'transcode', 'processing', now() + interval '1 hour')`,
      [media.id],
    );
  return media.contentId;
}

const versionsOf = async (bucket: Bucket) =>
  Number(
    (
      await server.db.query<{ n: string }>(
        `SELECT count(*) AS n FROM versions v JOIN contents c ON c.content_id = v.content_id WHERE c.bucket_id = $1`,
        [bucket.id],
      )
    ).rows[0]!.n,
  );

/** The value of the submit button whose tag carries `marker` (a Conform intent's JSON), decoded. */
function buttonValue(html: string, marker: string): string | undefined {
  const tag = [...html.matchAll(/<button\b[^>]*>/g)].map((match) => match[0]).find((candidate) => candidate.includes(marker));
  const value = tag ? /\bvalue="([^"]*)"/.exec(tag)?.[1] : undefined;
  return value?.replaceAll("&quot;", '"').replaceAll("&amp;", "&");
}

beforeAll(async () => {
  server = await startTestServer();
  editor = await signedInUser(server.url, server.db, { permissions: ["user"] });
  cases = await createTestBucket(server.db, { slug: "se-cases", name: "Cases", collectionName: "se-cases", jsonSchema: caseSchema });
  sessions = await createTestBucket(server.db, {
    slug: "se-sessions",
    name: "Sessions",
    collectionName: "se-sessions",
    screen: "sessies",
    jsonSchema: sessionSchema,
  });
  learning = await createTestBucket(server.db, {
    slug: "se-learning",
    name: "Learning",
    collectionName: "se-learning",
    screen: "dle-sessies",
    jsonSchema: learningSchema,
  });
  generic = await createTestBucket(server.db, {
    slug: "se-generic",
    name: "Generic",
    collectionName: "se-generic",
    jsonSchema: sessionSchema,
  });
  hidden = await createTestBucket(server.db, {
    slug: "se-hidden",
    name: "Hidden",
    collectionName: "se-hidden",
    screen: "sessies",
    private: true,
    jsonSchema: sessionSchema,
  });
  ids.harbourVideo = await video("harbour", 2.4, true);
  const doc = async (data: Record<string, unknown>) => (await createContent(server.db, cases.id, data, editor.user.id)).contentId;
  ids.harbour = await doc({ title: "Harbour at dawn", thumbnail: ids.harbourVideo });
  ids.tide = await doc({ title: "Tide coming in", thumbnail: await video("tide", 61, true) });
  ids.waiting = await doc({ title: "Blowing glass", thumbnail: await video("glass", 5, false) });
});
afterAll(() => server.stop());

describe("guards: as the generic editor's", () => {
  it("sends the signed out to /login and a user without the user permission to /no-access", async () => {
    const saved = await createContent(server.db, sessions.id, { title: "Guarded" }, null);
    const noAccess = await signedInUser(server.url, server.db, { permissions: [] });
    for (const path of ["/sessies/se-sessions/new", `/sessies/se-sessions/${saved.contentId}/latest`, "/dle-sessies/se-learning/new"]) {
      const anonymous = await get(server.url, path);
      expect(anonymous.status, path).toBe(302);
      expect(anonymous.headers.get("location"), path).toBe(`/login?from_url=${encodeURIComponent(path)}`);
      const refused = await get(server.url, path, noAccess.cookie);
      expect(refused.headers.get("location"), path).toBe("/no-access");
    }
  });

  it("answers 404 for a bucket of another screen, a private bucket, a bucket outside the user's list, and a document not there", async () => {
    const limited = await signedInUser(server.url, server.db, { buckets: ["se-learning"] });
    const inGeneric = await createContent(server.db, generic.id, { title: "Generic" }, null);
    const checks: Array<[string, string]> = [
      ["/sessies/se-generic/new", editor.cookie],
      [`/sessies/se-generic/${inGeneric.contentId}/latest`, editor.cookie],
      ["/sessies/se-learning/new", editor.cookie],
      ["/dle-sessies/se-sessions/new", editor.cookie],
      ["/sessies/se-hidden/new", editor.cookie],
      ["/sessies/se-sessions/new", limited.cookie],
      [`/sessies/se-sessions/${randomUUID()}/latest`, editor.cookie],
    ];
    for (const [path, cookie] of checks) expect((await get(server.url, path, cookie)).status, path).toBe(404);
  });

  it("refuses posts likewise, and a cross-site post, with nothing written", async () => {
    const before = {
      sessions: await versionsOf(sessions),
      generic: await versionsOf(generic),
      hidden: await versionsOf(hidden),
      learning: await versionsOf(learning),
    };
    const fields = { title: "Never saved" };
    const anonymous = await postForm(server.url, "/sessies/se-sessions/new", fields);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toMatch(/^\/login/);
    const noAccess = await signedInUser(server.url, server.db, { permissions: [] });
    expect((await postForm(server.url, "/sessies/se-sessions/new", fields, noAccess.cookie)).headers.get("location")).toBe("/no-access");
    expect((await postForm(server.url, "/sessies/se-generic/new", fields, editor.cookie)).status).toBe(404);
    expect((await postForm(server.url, "/sessies/se-learning/new", fields, editor.cookie)).status).toBe(404);
    expect((await postForm(server.url, "/dle-sessies/se-sessions/new", fields, editor.cookie)).status).toBe(404);
    expect((await postForm(server.url, "/sessies/se-hidden/new", fields, editor.cookie)).status).toBe(404);
    const crossSite = await postForm(server.url, "/sessies/se-sessions/new", fields, editor.cookie, {
      Origin: "https://evil.example",
      "Sec-Fetch-Site": "cross-site",
    });
    expect(crossSite.status).toBe(403);
    expect({
      sessions: await versionsOf(sessions),
      generic: await versionsOf(generic),
      hidden: await versionsOf(hidden),
      learning: await versionsOf(learning),
    }).toEqual(before);
  });
});

describe("the editor", () => {
  it("shows the cases as clip cards with Move buttons, and the preview with durations, videos and the cases still processing", async () => {
    const saved = await createContent(server.db, sessions.id, { title: "Morning", cases: [ids.harbour, ids.tide, ids.waiting] }, null);
    const response = await get(server.url, `/sessies/se-sessions/${saved.contentId}/latest`, editor.cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('class="bucket-edit session-editor"');
    expect(html).toMatch(/<div class="screen-main">[\s\S]*data-case="[^"]+"/);
    expect([inputValue(html, "cases[0]"), inputValue(html, "cases[1]"), inputValue(html, "cases[2]")]).toEqual([
      ids.harbour,
      ids.tide,
      ids.waiting,
    ]);
    // Move earlier / later: Conform's reorder intents, posted by the button without JavaScript.
    expect(JSON.parse(buttonValue(html, 'data-move="later"')!)).toEqual({ type: "reorder", payload: { name: "cases", from: 0, to: 1 } });
    // Durations per case and in total (2.4 s + 61 s + 5 s), the ready videos as native players, the other marked.
    expect(html).toContain("1:01");
    expect(html).toContain("Total 1:08");
    expect(html).toContain("3 cases");
    expect(html).toContain(`<video src="/api/v1/media/video/${ids.harbourVideo}"`);
    expect(html).toContain("Still processing");
    expect(html.match(/<details class="session-watch">/g)).toHaveLength(2);
  });

  it("moves a case without JavaScript: the page comes back with the new order and every input kept, then saves it", async () => {
    const saved = await createContent(server.db, sessions.id, { title: "Reorder me", cases: [ids.harbour, ids.tide] }, null);
    const path = `/sessies/se-sessions/${saved.contentId}/latest`;
    const html = await (await get(server.url, path, editor.cookie)).text();
    const form = {
      __contentId: saved.contentId,
      __baseVersionId: saved.versionId,
      title: "Typed, not saved",
      note: "A note",
      "cases[0]": ids.harbour,
      "cases[1]": ids.tide,
    };
    const moved = await postForm(server.url, path, { ...form, __intent__: buttonValue(html, 'data-move="later"')! }, editor.cookie);
    expect(moved.status).toBe(200);
    const again = await moved.text();
    expect([inputValue(again, "cases[0]"), inputValue(again, "cases[1]")]).toEqual([ids.tide, ids.harbour]);
    expect(inputValue(again, "title")).toBe("Typed, not saved");
    expect(inputValue(again, "note")).toBe("A note");
    expect(await versionsOf(sessions)).toBeGreaterThan(0);
    const stored = (
      await server.db.query<{ data: { title: string } }>(
        `SELECT v.data FROM versions v JOIN contents c ON c.latest_version_id = v.version_id WHERE c.content_id = $1`,
        [saved.contentId],
      )
    ).rows[0]!.data;
    expect(stored.title).toBe("Reorder me");

    const save = await postForm(server.url, path, { ...form, "cases[0]": ids.tide, "cases[1]": ids.harbour }, editor.cookie);
    expect(save.status).toBe(302);
    expect(save.headers.get("location")).toBe(`/sessies/se-sessions/${saved.contentId}/latest?saved`);
    const latest = (await (
      await get(server.url, `/api/v1/buckets/se-sessions/content/${saved.contentId}/latest`, editor.cookie)
    ).json()) as Record<string, unknown>;
    expect(latest).toMatchObject({ title: "Typed, not saved", note: "A note", cases: [ids.tide, ids.harbour] });
  });

  it("creates through the screen's action into the same versions table, and detects a conflict with the input kept", async () => {
    const created = await postForm(server.url, "/sessies/se-sessions/new", { title: "Created here", "cases[0]": ids.tide }, editor.cookie);
    expect(created.status).toBe(302);
    const contentId = /^\/sessies\/se-sessions\/([0-9a-f-]{36})\/latest\?saved$/.exec(created.headers.get("location")!)![1]!;
    const { rows } = await server.db.query<{ version_id: string }>(`SELECT version_id FROM versions WHERE content_id = $1`, [contentId]);
    expect(rows).toHaveLength(1);
    const base = rows[0]!.version_id;
    const path = `/sessies/se-sessions/${contentId}/latest`;
    const first = await postForm(
      server.url,
      path,
      { __contentId: contentId, __baseVersionId: base, title: "First save", "cases[0]": ids.tide },
      editor.cookie,
    );
    expect(first.status).toBe(302);
    // A Move without JavaScript after that save: the form comes back on the base it was posted with, not the newer one.
    const moveIntent = JSON.stringify({ type: "reorder", payload: { name: "cases", from: 0, to: 1 } });
    const moved = await postForm(
      server.url,
      path,
      {
        __contentId: contentId,
        __baseVersionId: base,
        title: "Second save",
        "cases[0]": ids.tide,
        "cases[1]": ids.harbour,
        __intent__: moveIntent,
      },
      editor.cookie,
    );
    expect(moved.status).toBe(200);
    expect(inputValue(await moved.text(), "__baseVersionId")).toBe(base);
    const second = await postForm(
      server.url,
      path,
      { __contentId: contentId, __baseVersionId: base, title: "Second save", "cases[0]": ids.harbour, "cases[1]": ids.tide },
      editor.cookie,
    );
    expect(second.status).toBe(409);
    const html = await second.text();
    expect(formErrorText(html)).toContain("saved this document while you were editing it");
    expect(inputValue(html, "title")).toBe("Second save");
    expect([inputValue(html, "cases[0]"), inputValue(html, "cases[1]")]).toEqual([ids.harbour, ids.tide]);
    expect((await server.db.query(`SELECT 1 FROM versions WHERE content_id = $1`, [contentId])).rows).toHaveLength(2);
  });
});

describe("a learning session's availability", () => {
  it("refuses an end before the start under the field, with nothing written, and saves dates in order", async () => {
    const before = await versionsOf(learning);
    const refused = await postForm(
      server.url,
      "/dle-sessies/se-learning/new",
      { title: "Backwards", availableFrom: "2027-03-01", availableUntil: "2027-02-01" },
      editor.cookie,
    );
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(fieldErrorText(html, "availableUntil")).toBe("The end date cannot be before the start date (2027-03-01).");
    expect(inputValue(html, "availableUntil")).toBe("2027-02-01");
    expect(await versionsOf(learning)).toBe(before);
    // In Dutch for a Dutch editor.
    const dutch = await postForm(
      server.url,
      "/dle-sessies/se-learning/new",
      { title: "Achteruit", availableFrom: "2027-03-01", availableUntil: "2027-02-01" },
      editor.cookie,
      { "Accept-Language": "nl-NL" },
    );
    expect(fieldErrorText(await dutch.text(), "availableUntil")).toBe("De einddatum kan niet vóór de begindatum (2027-03-01) liggen.");

    const same = await postForm(
      server.url,
      "/dle-sessies/se-learning/new",
      { title: "One day", availableFrom: "2027-03-01", availableUntil: "2027-03-01" },
      editor.cookie,
    );
    expect(same.status).toBe(302);
    expect(await versionsOf(learning)).toBe(before + 1);
  });

  it("is refused through the API too, and is no rule on other screens", async () => {
    const api = await postJson(
      server.url,
      "/api/v1/buckets/se-learning/save",
      { content: { title: "API", availableFrom: "2027-03-01", availableUntil: "2026-01-01" } },
      editor.cookie,
    );
    expect(api.status).toBe(400);
    expect(JSON.stringify(await api.json())).toContain("The end date cannot be before the start date");
    const elsewhere = await createTestBucket(server.db, { jsonSchema: learningSchema });
    const saved = await postJson(
      server.url,
      `/api/v1/buckets/${elsewhere.slug}/save`,
      { content: { title: "Generic", availableFrom: "2027-03-01", availableUntil: "2026-01-01" } },
      editor.cookie,
    );
    expect(saved.status).toBe(201);
  });

  it("shows where the session stands in the aside", async () => {
    const page = async (data: Record<string, unknown>) => {
      const saved = await createContent(server.db, learning.id, { title: "Dated", ...data }, null);
      return (await get(server.url, `/dle-sessies/se-learning/${saved.contentId}/latest`, editor.cookie)).text();
    };
    expect(await page({ availableFrom: "2000-01-01", availableUntil: "2999-12-31" })).toContain(
      "Available from January 1, 2000 until December 31, 2999",
    );
    const future = await page({ availableFrom: "2999-01-01" });
    expect(future).toContain("Not yet available");
    expect(future).toContain("From January 1, 2999");
    expect(await page({ availableUntil: "2001-05-02" })).toContain("Ended on May 2, 2001");
    expect(await page({})).toContain("Always available: no dates set");
  });
});
