import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContent, deleteContent, saveVersion } from "@server/content/store";
import { publishDocument, unpublishDocument } from "@server/content/publishing";
import { TEST_PUBLISHER } from "@tests/support/publishing";
import { insertMedia } from "@server/media/store";
import type { Bucket } from "@server/content/buckets";
import { createTestBucket, decode, errorPage, page, signedInUser } from "@tests/support/fixtures";
import { cookieFrom, postForm, sameOrigin } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The session overviews (/sessies/{bucket}, /dle-sessies/{bucket}; docs/screens.md) without
 * JavaScript: guards, the cards' data (first case's still, case count, total duration), the stored order of learning
 * sessions and its moves (stale and racing ones included), search switching reorder off, paging, each session's
 * publication state and the filter by state (issue 31).
 */

let server: TestServer;
let member: string;
let cases: Bucket;
/** The test cases by name: the case document and its video's media content (none for `silent`). */
const videos: Record<string, { caseId: string; videoId: string }> = {};

const video = { type: "string", title: "Video", _ref: "b-video" };

function sessionSchema(collection: string, extra: Record<string, unknown> = {}) {
  return {
    type: "object",
    properties: {
      title: { type: "string", title: "Title" },
      cases: { type: "array", title: "Cases", renderer: "video-cases", items: { type: "string", _ref: collection } },
      ...extra,
    },
  };
}

const availability = { availableFrom: { type: "string", format: "date" }, availableUntil: { type: "string", format: "date" } };

beforeAll(async () => {
  server = await startTestServer();
  member = (await signedInUser(server.url, server.db)).cookie;
  cases = await createTestBucket(server.db, {
    jsonSchema: { type: "object", properties: { title: { type: "string" }, thumbnail: video } },
  });
  for (const [name, duration] of [
    ["harbour", 62.4],
    ["glass", 30],
    ["tide", 120],
  ] as const) {
    const media = await insertMedia(server.db, {
      kind: "video",
      bucketId: cases.id,
      storageKey: `${crypto.randomUUID()}.mp4`,
      originalFilename: `${name}.mp4`,
      mimetype: "video/mp4",
      size: 1024,
      details: { duration, stillKeys: ["a", "b"], thumb: { index: 1 } },
      createdBy: null,
    });
    const document = await createContent(server.db, cases.id, { title: name, thumbnail: media.contentId }, null);
    videos[name] = { caseId: document.contentId, videoId: media.contentId };
  }
  // A case without a video: its duration is unknown.
  videos.silent = { caseId: (await createContent(server.db, cases.id, { title: "silent" }, null)).contentId, videoId: "" };
});
afterAll(() => server.stop());

const sessiesBucket = () => createTestBucket(server.db, { screen: "sessies", jsonSchema: sessionSchema(cases.collectionName) });
const dleBucket = () =>
  createTestBucket(server.db, { screen: "dle-sessies", jsonSchema: sessionSchema(cases.collectionName, availability) });
const caseIds = (...names: string[]) => names.map((name) => videos[name]!.caseId);

/** The sessions' titles in the order the page shows them. */
const titles = (html: string) => [...html.matchAll(/<a[^>]*class="session-title"[^>]*>([^<]*)<\/a>/g)].map((match) => decode(match[1]!));

/** The cards' text (grid view), by title. */
function cardTexts(html: string): Record<string, string> {
  const cards: Record<string, string> = {};
  for (const match of html.matchAll(/<li[^>]*class="session-card[^"]*"[^>]*>([\s\S]*?)<\/li>/g)) {
    const text = decode(
      match[1]!
        .replace(/<[^>]+>/g, " ")
        .replace(/\s+/g, " ")
        .trim(),
    );
    const title = /class="session-title"[^>]*>([^<]*)</.exec(match[1]!)?.[1];
    if (title) cards[decode(title)] = text;
  }
  return cards;
}

/** The neighbour a session's Move up / Move down button names ("" when it has none), and whether it is disabled. */
function moveButton(html: string, id: string, direction: "up" | "down"): { value: string; disabled: boolean } | null {
  const button = new RegExp(`<button[^>]*data-move="${direction}" data-session="${id}"[^>]*>`).exec(html)?.[0];
  if (!button) return null;
  return { value: /value="([^"]*)"/.exec(button)?.[1] ?? "", disabled: button.includes('disabled=""') };
}

async function gridCookie(): Promise<string> {
  const { cookie } = await signedInUser(server.url, server.db);
  const response = await postForm(server.url, "/session/index-view", { view: "grid", redirect_to: "/" }, cookie);
  return cookieFrom(response) ?? cookie;
}

/** The bucket's stored order (positions), never-placed ones as null. */
async function positions(bucket: Bucket): Promise<Array<[string, number | null]>> {
  const { rows } = await server.db.query<{ title: string; position: number | null }>(
    `SELECT v.data ->> 'title' AS title, c.position FROM contents c JOIN versions v ON v.version_id = c.latest_version_id
     WHERE c.bucket_id = $1 ORDER BY c.position ASC NULLS LAST, c.updated_at DESC`,
    [bucket.id],
  );
  return rows.map((row) => [row.title, row.position]);
}

/**
 * A session saved after every one before it: its updated_at a second after the last (PGlite's clock counts
 * milliseconds, so quick saves could tie and list in random order).
 */
let clock = 0;
async function createSession(bucket: Bucket, data: Record<string, unknown>) {
  const created = await createContent(server.db, bucket.id, data, null);
  await server.db.query(
    "UPDATE contents SET updated_at = '2026-01-01T00:00:00Z'::timestamptz + make_interval(secs => $2) WHERE content_id = $1",
    [created.contentId, ++clock],
  );
  return created;
}

async function sessions(bucket: Bucket, names: string[]): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const name of names) ids[name] = (await createSession(bucket, { title: name, cases: [] })).contentId;
  return ids;
}

const move = (bucket: Bucket, fields: Record<string, string>, cookie = member, query = "") =>
  postForm(server.url, `/dle-sessies/${bucket.slug}${query}`, { intent: "move", ...fields }, cookie);

describe("guards", () => {
  it("sends anonymous visitors to /login and users without the user permission to /no-access", async () => {
    const bucket = await dleBucket();
    const anonymous = await page(server.url, `/dle-sessies/${bucket.slug}`);
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toBe(`/login?from_url=${encodeURIComponent(`/dle-sessies/${bucket.slug}`)}`);
    const { cookie } = await signedInUser(server.url, server.db, { permissions: [] });
    for (const path of [`/sessies/${(await sessiesBucket()).slug}`, `/dle-sessies/${bucket.slug}`]) {
      const refused = await page(server.url, path, cookie);
      expect(refused.status, path).toBe(302);
      expect(refused.location, path).toBe("/no-access");
    }
  });

  it("answers 404 for a bucket of another screen, a private bucket and one the user may not see; POSTs likewise, nothing written", async () => {
    const sessies = await sessiesBucket();
    const dle = await dleBucket();
    const hidden = await createTestBucket(server.db, {
      screen: "dle-sessies",
      private: true,
      jsonSchema: sessionSchema(cases.collectionName),
    });
    const restricted = (await signedInUser(server.url, server.db, { buckets: [sessies.slug] })).cookie;
    for (const [path, cookie] of [
      [`/dle-sessies/${sessies.slug}`, member],
      [`/sessies/${dle.slug}`, member],
      [`/dle-sessies/${hidden.slug}`, member],
      [`/dle-sessies/${dle.slug}`, restricted],
    ] as const) {
      const { status, html } = await page(server.url, path, cookie);
      expect(status, path).toBe(404);
      expect(errorPage(html)?.status, path).toBe("404");
    }
    const ids = await sessions(dle, ["One", "Two"]);
    const before = await positions(dle);
    const refused = await move(dle, { contentId: ids.One!, before: ids.Two! }, restricted);
    expect(refused.status).toBe(404);
    const wrongScreen = await postForm(
      server.url,
      `/sessies/${dle.slug}`,
      { intent: "move", contentId: ids.One!, before: ids.Two! },
      member,
    );
    expect(wrongScreen.status).toBe(404);
    const anonymous = await postForm(server.url, `/dle-sessies/${dle.slug}`, { intent: "move", contentId: ids.One!, before: ids.Two! });
    expect(anonymous.status).toBe(302);
    expect(await positions(dle)).toEqual(before);
  });

  it("refuses a cross-site POST (CSRF) before any work", async () => {
    const dle = await dleBucket();
    const ids = await sessions(dle, ["One", "Two"]);
    const response = await postForm(
      server.url,
      `/dle-sessies/${dle.slug}`,
      { intent: "move", contentId: ids.One!, before: ids.Two! },
      member,
      { Origin: "https://evil.example" },
    );
    expect(response.status).toBe(403);
    expect((await positions(dle)).every(([, position]) => position === null)).toBe(true);
  });

  it("refuses a move on a sessies bucket (its sessions have no stored order) and a malformed move", async () => {
    const bucket = await sessiesBucket();
    const ids = await sessions(bucket, ["One", "Two"]);
    expect(
      (await postForm(server.url, `/sessies/${bucket.slug}`, { intent: "move", contentId: ids.One!, before: ids.Two! }, member)).status,
    ).toBe(400);
    const dle = await dleBucket();
    const dleIds = await sessions(dle, ["One", "Two"]);
    expect((await move(dle, { contentId: dleIds.One!, before: "nonsense" })).status).toBe(400);
    expect((await move(dle, { contentId: "nonsense", after: dleIds.Two! })).status).toBe(400);
  });
});

describe("the cards", () => {
  it("offers the bulk actions (issue 34): a box per session in grid and list, the bar, and the bulk page acts on them", async () => {
    const bucket = await sessiesBucket();
    const coast = await createSession(bucket, { title: "Bulk coast", cases: caseIds("harbour") });
    await createSession(bucket, { title: "Bulk dunes", cases: [] });
    for (const cookie of [member, await gridCookie()]) {
      const { html } = await page(server.url, `/sessies/${bucket.slug}`, cookie);
      expect(html).toContain(`action="/b/${bucket.slug}/bulk"`);
      expect(html.match(/<input type="checkbox"[^>]*form="overview-bulk"[^>]*>/g)).toHaveLength(2);
    }
    const asked = new URLSearchParams([
      ["action", "duplicate"],
      ["scope", "ticked"],
      ["id", coast.contentId],
    ]);
    const confirm = await page(server.url, `/b/${bucket.slug}/bulk?${asked}`, member);
    expect(decode(confirm.html)).toContain("Bulk coast");
    expect(confirm.html).toContain(`href="/sessies/${bucket.slug}"`);
    const done = await fetch(`${server.url}/b/${bucket.slug}/bulk?${asked}`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: member, ...sameOrigin(server.url) },
      body: asked,
    });
    expect(done.status).toBe(200);
    expect(titles((await page(server.url, `/sessies/${bucket.slug}`, member)).html)).toContain("Bulk coast (copy)");
  });

  it("show the first case's still, the number of cases and their total duration ('—' when one is unknown), in grid and list", async () => {
    const bucket = await sessiesBucket();
    await createSession(bucket, { title: "Coast", cases: caseIds("harbour", "tide") });
    await createSession(bucket, { title: "Mixed", cases: caseIds("silent", "glass") });
    await createSession(bucket, { title: "Empty", cases: [] });
    const deletedCase = await createContent(server.db, cases.id, { title: "gone" }, null);
    await createSession(bucket, { title: "With a deleted case", cases: [deletedCase.contentId, ...caseIds("glass")] });
    await deleteContent(server.db, cases.id, deletedCase.contentId, deletedCase.versionId);

    const grid = await page(server.url, `/sessies/${bucket.slug}`, await gridCookie());
    expect(grid.status).toBe(200);
    const cards = cardTexts(grid.html);
    expect(cards.Coast).toContain("2 cases");
    expect(cards.Coast).toContain("3:02"); // 62.4 + 120 seconds
    expect(cards.Mixed).toContain("2 cases");
    expect(cards.Mixed).toContain("—");
    expect(cards.Empty).toContain("0 cases");
    expect(cards["With a deleted case"]).toContain("1 case ");
    expect(cards["With a deleted case"]).toContain("0:30");
    // The first existing case's chosen still (index 1).
    expect(grid.html).toContain(`src="/api/v1/still/${videos.harbour!.videoId}/1"`);
    expect(grid.html).toContain(`src="/api/v1/still/${videos.glass!.videoId}/1"`);
    expect(titles(grid.html)).toEqual(["With a deleted case", "Empty", "Mixed", "Coast"]);
    expect(grid.html).not.toContain("session-move"); // sessies: no stored order

    const list = await page(server.url, `/sessies/${bucket.slug}`, member);
    expect(list.html).toContain('class="content-table session-table"');
    expect(list.html).toContain(`src="/api/v1/still/${videos.harbour!.videoId}/1"`);
    expect(titles(list.html)).toEqual(["With a deleted case", "Empty", "Mixed", "Coast"]);
  });

  it("show nothing of cases in a bucket the user may not see", async () => {
    const bucket = await sessiesBucket();
    await createSession(bucket, { title: "Coast", cases: caseIds("harbour", "tide") });
    const restricted = (await signedInUser(server.url, server.db, { buckets: [bucket.slug] })).cookie;
    const { html } = await page(server.url, `/sessies/${bucket.slug}`, restricted);
    expect(titles(html)).toEqual(["Coast"]);
    expect(html).not.toContain("/api/v1/still/");
    expect(html).toContain("2 cases");
  });

  it("say when a learning session is available, in the interface language", async () => {
    const bucket = await dleBucket();
    await createSession(bucket, { title: "Range", cases: [], availableFrom: "2026-09-01", availableUntil: "2027-06-30" });
    await createSession(bucket, { title: "Future", cases: [], availableFrom: "2999-01-01" });
    await createSession(bucket, { title: "Past", cases: [], availableUntil: "2001-01-31" });
    await createSession(bucket, { title: "Always", cases: [] });
    const cookie = await gridCookie();
    const cards = cardTexts((await page(server.url, `/dle-sessies/${bucket.slug}`, cookie)).html);
    expect(cards.Range).toContain("Available from 1 Sep 2026 until 30 Jun 2027");
    expect(cards.Future).toContain("Available from 1 Jan 2999");
    expect(cards.Future).toContain("Not yet available");
    expect(cards.Past).toContain("Available until 31 Jan 2001");
    expect(cards.Past).toContain("No longer available");
    expect(cards.Always).toContain("Always available");
    const dutch = cardTexts((await page(server.url, `/dle-sessies/${bucket.slug}`, cookie, { "Accept-Language": "nl-NL" })).html);
    expect(dutch.Range).toContain("Beschikbaar van 1 sep 2026 tot en met 30 jun 2027");
    expect(dutch.Future).toContain("Nog niet beschikbaar");
    expect(dutch.Always).toContain("Altijd beschikbaar");
  });

  it("say so when there are no sessions, and when nothing matches the search", async () => {
    const bucket = await dleBucket();
    expect((await page(server.url, `/dle-sessies/${bucket.slug}`, member)).html).toContain("No sessions yet.");
    await sessions(bucket, ["Tide"]);
    const none = await page(server.url, `/dle-sessies/${bucket.slug}?q=Rembrandt`, member);
    expect(none.html).toContain("No sessions match your search.");
    expect(titles((await page(server.url, `/dle-sessies/${bucket.slug}?q=tid`, member)).html)).toEqual(["Tide"]);
  });
});

describe("the order of learning sessions", () => {
  it("lists placed sessions in their stored order, never-placed ones after, newest first", async () => {
    const bucket = await dleBucket();
    const ids = await sessions(bucket, ["A", "B", "C", "D"]);
    expect(titles((await page(server.url, `/dle-sessies/${bucket.slug}`, member)).html)).toEqual(["D", "C", "B", "A"]);
    await server.db.query("UPDATE contents SET position = 1 WHERE content_id = $1", [ids.A]);
    await server.db.query("UPDATE contents SET position = 2 WHERE content_id = $1", [ids.B]);
    expect(titles((await page(server.url, `/dle-sessies/${bucket.slug}`, member)).html)).toEqual(["A", "B", "D", "C"]);
  });

  it("moves a session up and down by form posts, back to the same page, renumbering every position in one go", async () => {
    const bucket = await dleBucket();
    const ids = await sessions(bucket, ["A", "B", "C"]); // shown C, B, A
    const up = await move(bucket, { contentId: ids.A!, before: ids.B! }, member, "?page=1");
    expect(up.status).toBe(302);
    expect(up.headers.get("location")).toBe(`/dle-sessies/${bucket.slug}?page=1`);
    expect(await positions(bucket)).toEqual([
      ["C", 1],
      ["A", 2],
      ["B", 3],
    ]);
    const down = await move(bucket, { contentId: ids.C!, after: ids.A! });
    expect(down.headers.get("location")).toBe(`/dle-sessies/${bucket.slug}`);
    expect(await positions(bucket)).toEqual([
      ["A", 1],
      ["C", 2],
      ["B", 3],
    ]);
    expect(titles((await page(server.url, `/dle-sessies/${bucket.slug}`, member)).html)).toEqual(["A", "C", "B"]);
    // A session made later is never placed: after the placed ones.
    await sessions(bucket, ["New"]);
    expect(titles((await page(server.url, `/dle-sessies/${bucket.slug}`, member)).html)).toEqual(["A", "C", "B", "New"]);
    // The page's buttons name the neighbours: Move up on C names A, Move down names B.
    const { html } = await page(server.url, `/dle-sessies/${bucket.slug}`, member);
    expect(moveButton(html, ids.C!, "up")).toEqual({ value: ids.A, disabled: false });
    expect(moveButton(html, ids.C!, "down")).toEqual({ value: ids.B, disabled: false });
    expect(moveButton(html, ids.A!, "up")).toEqual({ value: "", disabled: true });
  });

  it("a move on a stale view still puts the session next to the neighbour the editor saw; a vanished neighbour is refused clearly", async () => {
    const bucket = await dleBucket();
    const ids = await sessions(bucket, ["A", "B", "C", "D"]);
    await move(bucket, { contentId: ids.A!, after: ids.D! });
    expect((await positions(bucket)).map(([title]) => title)).toEqual(["D", "A", "C", "B"]);
    // Two editors saw D C B A. The first moves B up (before C); the second, on the old view, moves C down (after B).
    await move(bucket, { contentId: ids.B!, before: ids.C! });
    expect((await positions(bucket)).map(([title]) => title)).toEqual(["D", "A", "B", "C"]);
    await move(bucket, { contentId: ids.C!, after: ids.B! });
    expect((await positions(bucket)).map(([title]) => title)).toEqual(["D", "A", "B", "C"]);
    // The neighbour was deleted in the meantime: 409, the page says why, nothing changed.
    const gone = await createSession(bucket, { title: "Gone", cases: [] });
    await deleteContent(server.db, bucket.id, gone.contentId, gone.versionId);
    const before = await positions(bucket);
    const refused = await move(bucket, { contentId: ids.A!, before: gone.contentId });
    expect(refused.status).toBe(409);
    expect(decode(await refused.text())).toContain("The order was not changed: that session or its neighbour was deleted in the meantime.");
    expect(await positions(bucket)).toEqual(before);
  });

  it("racing moves run one after the other: every position stays unique and the sessions all stay", async () => {
    const bucket = await dleBucket();
    const names = ["A", "B", "C", "D", "E", "F"];
    const ids = await sessions(bucket, names);
    const moves: Array<Record<string, string>> = [
      { contentId: ids.A!, before: ids.F! },
      { contentId: ids.B!, after: ids.E! },
      { contentId: ids.C!, before: ids.D! },
      { contentId: ids.F!, after: ids.A! },
      { contentId: ids.E!, before: ids.C! },
    ];
    const responses = await Promise.all(moves.map((fields) => move(bucket, fields)));
    expect(responses.map((response) => response.status)).toEqual(moves.map(() => 302));
    const stored = await positions(bucket);
    expect(stored.map(([, position]) => position)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(stored.map(([title]) => title).sort()).toEqual(names);
  });

  it("answers a fetcher's move (js=1) without a redirect", async () => {
    const bucket = await dleBucket();
    const ids = await sessions(bucket, ["A", "B"]);
    const response = await move(bucket, { contentId: ids.A!, before: ids.B!, js: "1" });
    expect(response.status).toBe(200);
    expect((await positions(bucket)).map(([title]) => title)).toEqual(["A", "B"]);
  });

  it("is off while searching, and the page says why", async () => {
    const bucket = await dleBucket();
    await sessions(bucket, ["Tide one", "Tide two"]);
    const searched = await page(server.url, `/dle-sessies/${bucket.slug}?q=tide`, member);
    expect(titles(searched.html)).toEqual(["Tide two", "Tide one"]);
    expect(searched.html).not.toContain('class="session-move"');
    expect(decode(searched.html)).toContain("The order can't be changed while searching");
    expect((await page(server.url, `/dle-sessies/${bucket.slug}`, member)).html).toContain('class="session-move"');
  });

  it("pages by 20 and remembers the page; Move up on a page's first session names the last of the page before", async () => {
    const bucket = await dleBucket();
    const names = Array.from({ length: 25 }, (_, index) => `S${String(index + 1).padStart(2, "0")}`);
    const ids = await sessions(bucket, names); // newest first: S25 … S01
    let { cookie } = await signedInUser(server.url, server.db);
    const second = await page(server.url, `/dle-sessies/${bucket.slug}?page=2`, cookie);
    cookie = cookieFrom(second.response) ?? cookie;
    expect(second.html).toContain("Page 2 of 2");
    expect(titles(second.html)).toEqual(["S05", "S04", "S03", "S02", "S01"]);
    expect((await page(server.url, `/dle-sessies/${bucket.slug}`, cookie)).html).toContain("Page 2 of 2");
    expect(moveButton(second.html, ids.S05!, "up")).toEqual({ value: ids.S06, disabled: false });
    const moved = await move(bucket, { contentId: ids.S05!, before: ids.S06! }, cookie, "?page=2");
    expect(moved.headers.get("location")).toBe(`/dle-sessies/${bucket.slug}?page=2`);
    // S05 now comes right before S06: the last of page 1, S06 first on page 2.
    expect(titles((await page(server.url, `/dle-sessies/${bucket.slug}?page=1`, cookie)).html).slice(-2)).toEqual(["S07", "S05"]);
    expect(titles((await page(server.url, `/dle-sessies/${bucket.slug}?page=2`, cookie)).html)).toEqual([
      "S06",
      "S04",
      "S03",
      "S02",
      "S01",
    ]);
    // The last session overall cannot move down; the first cannot move up.
    const last = await page(server.url, `/dle-sessies/${bucket.slug}?page=2`, cookie);
    expect(moveButton(last.html, ids.S01!, "down")).toEqual({ value: "", disabled: true });
  });

  it("deletes a session through the confirm dialog, naming what refers to it", async () => {
    const bucket = await dleBucket();
    const ids = await sessions(bucket, ["Doomed", "Kept"]);
    const dialog = await page(server.url, `/dle-sessies/${bucket.slug}?delete=${ids.Doomed}`, member);
    expect(dialog.html).toContain('role="alertdialog"');
    expect(decode(dialog.html)).toContain("Delete “Doomed”");
    const versionId = /name="versionId" value="([0-9a-f-]{36})"/.exec(dialog.html)?.[1];
    const deleted = await postForm(
      server.url,
      `/dle-sessies/${bucket.slug}`,
      { intent: "delete", contentId: ids.Doomed!, versionId: versionId! },
      member,
    );
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("location")).toBe(`/dle-sessies/${bucket.slug}?deleted`);
    expect(titles((await page(server.url, `/dle-sessies/${bucket.slug}`, member)).html)).toEqual(["Kept"]);
  });
});

describe("publication states", () => {
  /** Each session's badge, by title (list view). */
  function states(html: string): Record<string, string> {
    const found: Record<string, string> = {};
    for (const row of html.matchAll(/<tr[^>]*data-session="[^"]*"[^>]*>([\s\S]*?)<\/tr>/g)) {
      const title = /class="session-title"[^>]*>([^<]*)</.exec(row[1]!)?.[1];
      const badge = /class="publication-badge publication-(\w+)"/.exec(row[1]!)?.[1];
      if (title) found[decode(title)] = badge ?? "";
    }
    return found;
  }

  it("show each session's state and filter by it (sessies and dle-sessies); reordering is off while filtering and says why", async () => {
    for (const bucket of [await sessiesBucket(), await dleBucket()]) {
      const screen = bucket.screen;
      const ids = await sessions(bucket, ["Draft one", "Live one", "Changed one", "Taken off"]);
      for (const name of ["Live one", "Changed one", "Taken off"]) {
        await publishDocument(server.db, TEST_PUBLISHER, { bucket, contentId: ids[name]! });
      }
      const latest = await server.db.query<{ versionId: string }>(
        `SELECT latest_version_id AS "versionId" FROM contents WHERE content_id = $1`,
        [ids["Changed one"]],
      );
      await saveVersion(server.db, {
        bucketId: bucket.id,
        contentId: ids["Changed one"]!,
        baseVersionId: latest.rows[0]!.versionId,
        data: { title: "Changed one", cases: [] },
        userId: null,
      });
      await unpublishDocument(server.db, TEST_PUBLISHER, { bucket, contentId: ids["Taken off"]! });

      const all = await page(server.url, `/${screen}/${bucket.slug}`, member);
      expect(states(all.html), screen).toEqual({
        "Draft one": "draft",
        "Live one": "published",
        "Changed one": "changed",
        "Taken off": "unpublished",
      });
      expect(all.html).toMatch(/<select id="overview-state" name="state"/);

      const drafts = await page(server.url, `/${screen}/${bucket.slug}?state=draft`, member);
      expect(states(drafts.html), screen).toEqual({ "Draft one": "draft" });
      expect(drafts.html).toMatch(/<option value="draft" selected="">Draft<\/option>/);
      expect(drafts.html).not.toContain('class="session-move"');
      if (screen === "dle-sessies") expect(decode(drafts.html)).toContain("The order can't be changed while filtering by state");
      expect(titles((await page(server.url, `/${screen}/${bucket.slug}?state=changed&q=changed`, member)).html)).toEqual(["Changed one"]);
      expect(decode((await page(server.url, `/${screen}/${bucket.slug}?state=scheduled`, member)).html)).toContain(
        "No sessions in this state.",
      );
      // An unknown state is no filter.
      expect(Object.keys(states((await page(server.url, `/${screen}/${bucket.slug}?state=nope`, member)).html))).toHaveLength(4);
    }
  });

  it("say the states in Dutch", async () => {
    const bucket = await sessiesBucket();
    await sessions(bucket, ["Sessie"]);
    const { cookie } = await signedInUser(server.url, server.db);
    const dutch = cookieFrom(await postForm(server.url, "/session/locale", { locale: "nl", redirect_to: "/" }, cookie)) ?? cookie;
    const all = decode((await page(server.url, `/sessies/${bucket.slug}`, dutch)).html);
    expect(all).toMatch(/<span class="publication-badge publication-draft"[^>]*>Concept<\/span>/);
    expect(all).toMatch(/<option value=""[^>]*>Alle statussen<\/option>/);
    expect(decode((await page(server.url, `/sessies/${bucket.slug}?state=published`, dutch)).html)).toContain(
      "Geen sessies met deze status.",
    );
  });
});
