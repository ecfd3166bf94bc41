import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createTestBucket, decode } from "@tests/support/fixtures";
import { createTestUser, get, inputValue, postForm, sameOrigin, signIn } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";
import { openEventStream, type OpenEventStream } from "@tests/support/event-stream";
import type { PresentEditor } from "@core/content/presence";

/*
 * Who else has a document open (docs/architecture.md, "Presence"): the edit page shows it as of load (without
 * JavaScript, that is all), its event stream shows every change (who came, left, has unsaved changes; someone
 * else's save; a deletion), the overview marks the rows, and a save of a document deleted meanwhile keeps the input.
 */

let server: TestServer;
let bucket: Bucket;
let anna: string;
let ben: string;
let outsider: string;
const streams: OpenEventStream[] = [];

beforeAll(async () => {
  server = await startTestServer({ env: { MEDIA_WORKERS: "0" } });
  bucket = await createTestBucket(server.db, {
    jsonSchema: { type: "object", properties: { title: { type: "string", title: "Title" }, place: { type: "string", title: "Place" } } },
  });
  const other = await createTestBucket(server.db, {});
  const users = await Promise.all([
    createTestUser(server.db, { name: "Anna Bakker" }),
    createTestUser(server.db, { name: "Ben de Vries" }),
    createTestUser(server.db, { name: "Olga", buckets: [other.slug] }),
  ]);
  [anna, ben, outsider] = (await Promise.all(users.map((user) => signIn(server.url, user.email, user.password)))) as [
    string,
    string,
    string,
  ];
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await server.stop();
});

async function newDocument(title: string) {
  const created = await postForm(server.url, `/b/${bucket.slug}/new`, { __contentId: "", __baseVersionId: "", title, place: "" }, anna);
  expect(created.status).toBe(302);
  const path = created.headers.get("location")!.split("?")[0]!;
  return { path, contentId: path.split("/")[3]! };
}

/** Opens the edit page as `cookie`: its HTML, its presence page id and the form's base version. */
async function openPage(path: string, cookie: string) {
  const html = await (await get(server.url, path, cookie)).text();
  const pageId = /data-presence-page="([^"]+)"/.exec(html)?.[1];
  expect(pageId).toMatch(/^[0-9a-f-]{36}$/);
  return { html, pageId: pageId!, base: inputValue(html, "__baseVersionId")! };
}

async function stream(path: string, pageId: string, cookie: string, since?: string) {
  const query = new URLSearchParams({ page: pageId, ...(since ? { since } : {}) });
  const opened = await openEventStream(server.url, `${path.replace(/\/latest$/, "")}/presence?${query}`, cookie);
  streams.push(opened);
  return opened;
}

/** Says whether the page has unsaved changes, as the page's script does. */
const putUnsaved = (path: string, fields: Record<string, string>, cookie: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path.replace(/\/latest$/, "")}/presence`, {
    method: "PUT",
    redirect: "manual",
    headers: { Cookie: cookie, ...sameOrigin(server.url), "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields),
  });

const names = (data: unknown) => (data as PresentEditor[]).map((editor) => editor.name);
/** The people the page shows as here: their entries' text. */
const shownEditors = (html: string) =>
  [...html.matchAll(/<li data-presence-user="[^"]*">([\s\S]*?)<\/li>/g)].map((match) => decode(match[1]!.replace(/<[^>]+>/g, "")));

describe("presence on a document's edit page", () => {
  it("is shown as of page load, then live: who came, who has unsaved changes, someone else's save, who left", async () => {
    const { path } = await newDocument("The sea");
    const annaPage = await openPage(path, anna);
    expect(shownEditors(annaPage.html)).toEqual([]);
    const benPage = await openPage(path, ben);
    // Without JavaScript this is all Ben gets: Anna, since when.
    expect(shownEditors(benPage.html)).toEqual([expect.stringMatching(/^AB ?Anna Bakker since \d\d:\d\d( [AP]M)? UTC$/)]);

    const annaStream = await stream(path, annaPage.pageId, anna);
    expect(annaStream.response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(names(await annaStream.next("editors"))).toEqual(["Ben de Vries"]);
    const benStream = await stream(path, benPage.pageId, ben);
    expect(names(await benStream.next("editors"))).toEqual(["Anna Bakker"]);

    const from = annaStream.events.length;
    const unsaved = await putUnsaved(path, { page: benPage.pageId, unsaved: "true" }, ben);
    expect(unsaved.status).toBe(204);
    await annaStream.next("editors", (data) => (data as PresentEditor[])[0]?.unsaved === true, { from });

    const saved = await postForm(
      server.url,
      path,
      { __contentId: path.split("/")[3]!, __baseVersionId: benPage.base, title: "The sea", place: "Scheveningen" },
      ben,
    );
    expect(saved.status).toBe(302);
    const told = (await annaStream.next("saved")) as { author: string; versionId: string };
    expect(told.author).toBe("Ben de Vries");
    // The saver is not told of their own save.
    expect(benStream.events.some((entry) => entry.event === "saved")).toBe(false);

    const beforeLeaving = annaStream.events.length;
    benStream.close();
    expect(names(await annaStream.next("editors", (data) => names(data).length === 0, { from: beforeLeaving }))).toEqual([]);
  });

  it("tells a page of a save made while it loaded, as its stream opens; not a page that loaded it", async () => {
    const { path, contentId } = await newDocument("Saved while loading");
    const annaPage = await openPage(path, anna);
    const benPage = await openPage(path, ben);
    const saved = await postForm(
      server.url,
      path,
      { __contentId: contentId, __baseVersionId: benPage.base, title: "Saved", place: "" },
      ben,
    );
    expect(saved.status).toBe(302);
    const annaStream = await stream(path, annaPage.pageId, anna, annaPage.base);
    const told = (await annaStream.next("saved")) as { author: string; versionId: string };
    expect(told.author).toBe("Ben de Vries");
    expect(told.versionId).not.toBe(annaPage.base);

    // A page loaded after the save has nothing to be told; the events up to a later one hold no save.
    const fresh = await openPage(path, anna);
    const freshStream = await stream(path, fresh.pageId, anna, fresh.base);
    await freshStream.next("editors");
    const from = freshStream.events.length;
    expect((await putUnsaved(path, { page: benPage.pageId, unsaved: "true" }, ben)).status).toBe(204);
    await freshStream.next("editors", (data) => (data as PresentEditor[])[0]?.unsaved === true, { from });
    expect(freshStream.events.some((entry) => entry.event === "saved")).toBe(false);
  });

  it("tells a page of a deletion made while it loaded, as its stream opens", async () => {
    const { path, contentId } = await newDocument("Deleted while loading");
    const annaPage = await openPage(path, anna);
    const deleted = await postForm(server.url, `/b/${bucket.slug}?index`, { intent: "delete", contentId, versionId: annaPage.base }, ben);
    expect(deleted.status).toBe(302);
    const annaStream = await stream(path, annaPage.pageId, anna, annaPage.base);
    expect(annaStream.response.status).toBe(200);
    await annaStream.next("deleted");
    // Another user's page of it, or a page never shown: still not found.
    expect((await get(server.url, `${path.replace(/\/latest$/, "")}/presence?page=${annaPage.pageId}`, ben)).status).toBe(404);
    expect((await get(server.url, `${path.replace(/\/latest$/, "")}/presence?page=${crypto.randomUUID()}`, anna)).status).toBe(404);
  });

  it("marks the overview's rows someone else has open, as of its load", async () => {
    const { path, contentId } = await newDocument("Marked row");
    await openPage(path, ben);
    const overview = decode(await (await get(server.url, `/b/${bucket.slug}`, anna)).text());
    expect(overview).toContain("Ben de Vries is editing");
    const own = decode(await (await get(server.url, `/b/${bucket.slug}`, ben)).text());
    expect(own).not.toContain("Ben de Vries is editing");
    expect(contentId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("a page shown without JavaScript stops counting once it runs out", async () => {
    const { path, contentId } = await newDocument("Ran out");
    await openPage(path, ben);
    await server.db.query("UPDATE presence SET expires_at = now() - interval '1 second' WHERE content_id = $1", [contentId]);
    expect(shownEditors((await openPage(path, anna)).html)).toEqual([]);
  });

  it("tells an open page that the document was deleted; its save then keeps the input for a new document", async () => {
    const { path, contentId } = await newDocument("To be deleted");
    const annaPage = await openPage(path, anna);
    const annaStream = await stream(path, annaPage.pageId, anna);
    await annaStream.next("editors");
    const deleted = await postForm(server.url, `/b/${bucket.slug}?index`, { intent: "delete", contentId, versionId: annaPage.base }, ben);
    expect(deleted.status).toBe(302);
    await annaStream.next("deleted");

    const save = await postForm(
      server.url,
      path,
      { __contentId: contentId, __baseVersionId: annaPage.base, title: "Kept input", place: "Delft" },
      anna,
    );
    expect(save.status).toBe(302);
    const next = save.headers.get("location")!;
    expect(next).toMatch(new RegExp(`^/b/${bucket.slug}/new\\?draft=[\\w-]+&deleted$`));
    const page = await (await get(server.url, next, anna)).text();
    expect(decode(page)).toContain("Someone else deleted the document you were editing. Your input is in this new document");
    expect(inputValue(page, "title")).toBe("Kept input");
    expect(inputValue(page, "place")).toBe("Delft");
    expect(inputValue(page, "__contentId")).toBe("");
    // Saved again: a new document with the input.
    const again = await postForm(
      server.url,
      `/b/${bucket.slug}/new`,
      { __contentId: "", __baseVersionId: "", title: "Kept input", place: "Delft" },
      anna,
    );
    expect(again.status).toBe(302);
  });

  it("refuses a stream or a flag for a page, document or bucket that is not the user's", async () => {
    const { path } = await newDocument("Guarded");
    const annaPage = await openPage(path, anna);
    const base = path.replace(/\/latest$/, "");
    // Another user's page id, an unknown document, a bucket the user cannot see, no page id.
    expect((await get(server.url, `${base}/presence?page=${annaPage.pageId}`, ben)).status).toBe(404);
    expect((await get(server.url, `/b/${bucket.slug}/${crypto.randomUUID()}/presence?page=${annaPage.pageId}`, anna)).status).toBe(404);
    expect((await get(server.url, `${base}/presence?page=${annaPage.pageId}`, outsider)).status).toBe(404);
    expect((await get(server.url, `${base}/presence`, anna)).status).toBe(404);
    expect((await putUnsaved(path, { page: annaPage.pageId, unsaved: "true" }, ben)).status).toBe(404);
    expect((await putUnsaved(path, { page: annaPage.pageId, unsaved: "maybe" }, anna)).status).toBe(400);
    // Her own page, named under another document: not that document's page.
    const { path: other } = await newDocument("Another");
    expect((await putUnsaved(other, { page: annaPage.pageId, unsaved: "true" }, anna)).status).toBe(404);
    expect((await postForm(server.url, `${base}/presence`, { page: annaPage.pageId, unsaved: "true" }, anna)).status).toBe(405);
    // Signed out: to the sign-in page, like every page.
    expect((await get(server.url, `${base}/presence?page=${annaPage.pageId}`)).status).toBe(302);
    // A cross-site post is refused before any work.
    const crossSite = await putUnsaved(path, { page: annaPage.pageId, unsaved: "true" }, anna, { Origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
  });

  it.skipIf(process.env.VITRINE_TEST_DB !== "postgres")(
    "on PostgreSQL, comes back by itself when the connection that hears notices is lost, and reads again what it missed",
    async () => {
      const { path } = await newDocument("Lost connection");
      const annaPage = await openPage(path, anna);
      const annaStream = await stream(path, annaPage.pageId, anna);
      expect(names(await annaStream.next("editors"))).toEqual([]);
      const listening = async () =>
        (
          await server.db.query<{ pid: number }>(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()",
          )
        ).rows.map((row) => row.pid);
      const [lost] = await listening();
      expect(lost).toBeDefined();
      await server.db.query("SELECT pg_terminate_backend($1)", [lost]);
      // Ben comes while nobody listens (or just after): Anna's page is told either way.
      await openPage(path, ben);
      expect(names(await annaStream.next("editors", (data) => names(data).length > 0))).toEqual(["Ben de Vries"]);
      await expect.poll(listening, { timeout: 10_000 }).toEqual([expect.any(Number)]);
      expect((await listening())[0]).not.toBe(lost);
    },
  );

  it("ends every stream when the server stops, and removes its pages' rows", async () => {
    const own = await startTestServer({ env: { MEDIA_WORKERS: "0" } });
    try {
      const ownBucket = await createTestBucket(own.db, {});
      const user = await createTestUser(own.db, { name: "Cleo" });
      const cookie = await signIn(own.url, user.email, user.password);
      const created = await postForm(own.url, `/b/${ownBucket.slug}/new`, { __contentId: "", __baseVersionId: "", title: "Stop" }, cookie);
      const path = created.headers.get("location")!.split("?")[0]!;
      const html = await (await get(own.url, path, cookie)).text();
      const pageId = /data-presence-page="([^"]+)"/.exec(html)![1]!;
      const opened = await openEventStream(own.url, `${path.replace(/\/latest$/, "")}/presence?page=${pageId}`, cookie);
      await opened.next("editors");
      expect(own.presence.openStreams).toBe(1);
      const closing = own.close();
      await expect(opened.next("never")).rejects.toThrow(/ended/);
      await closing;
      const { rows } = await own.database.db.query("SELECT 1 FROM presence WHERE server_id IS NOT NULL");
      expect(rows).toHaveLength(0);
    } finally {
      await own.database.drop();
    }
  });
});
