import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import type { PresentEditor, SavedEvent } from "@core/content/presence";
import { createTestBucket, decode } from "@tests/support/fixtures";
import { createTestUser, get, inputValue, postForm, sameOrigin, signIn } from "@tests/support/http";
import { openEventStream, type OpenEventStream } from "@tests/support/event-stream";
import { exited, startProcess } from "@tests/support/media-server";
import { tempFolders } from "@tests/support/temp-folders";
import { createTestDatabase, TEST_SESSION_SECRET, type TestDatabase } from "@tests/support/server";

/*
 * Presence across two servers (`npm start`, real processes) on one PostgreSQL database (docs/architecture.md,
 * "Presence"): each server hears the database's notices (LISTEN vitrine_presence), so a page whose stream is held
 * by one server is told what an editor on the other does: coming, unsaved changes, a save, leaving, a deletion,
 * and the other server stopping (it removes its pages' rows). PostgreSQL only (PGlite is one process's).
 */

const onPostgres = process.env.VITRINE_TEST_DB === "postgres" && Boolean(process.env.TEST_DATABASE_URL);

/** How long a test waits for an event that a notice on the other server should bring. */
const EVENT_DEADLINE_MS = 15_000;

type Running = Awaited<ReturnType<typeof startProcess>>;
let database: TestDatabase;
/** Empty until both servers started. */
let servers: Running[] = [];
const both = () => servers as [Running, Running];
let bucket: Bucket;
let anna: { id: string; cookie: string };
let ben: { id: string; cookie: string };
const streams: OpenEventStream[] = [];
const folders = tempFolders();
const folder = folders.make;

beforeAll(async () => {
  if (!onPostgres) return;
  database = await createTestDatabase();
  // A user exists: the servers start as on any later start (no demo content).
  await createTestUser(database.db, { permissions: ["user", "admin"] });
  bucket = await createTestBucket(database.db, {
    slug: "shared-presence",
    collectionName: "shared-presence",
    jsonSchema: { type: "object", properties: { title: { type: "string", title: "Title" }, place: { type: "string", title: "Place" } } },
  });
  const env = (name: string) => ({
    DATABASE_URL: database.databaseUrl!,
    DATA_DIR: folder(`vitrine-two-servers-presence-${name}-`),
    MEDIA_DIR: folder(`vitrine-two-servers-presence-media-${name}-`),
    PORT: "0",
    HOST: "127.0.0.1",
    SESSION_SECRET: TEST_SESSION_SECRET,
    LOG_LEVEL: "warn",
    MEDIA_WORKERS: "0",
  });
  const [a, b] = await Promise.all([startProcess(env("a"), 90_000), startProcess(env("b"), 90_000)]);
  servers = [a, b];
  const [annaUser, benUser] = await Promise.all([
    createTestUser(database.db, { name: "Anna Bakker" }),
    createTestUser(database.db, { name: "Ben de Vries" }),
  ]);
  // Anna signs in on A, Ben on B: each works on their own server (the session would hold on either).
  anna = { id: annaUser.id, cookie: await signIn(a.url, annaUser.email, annaUser.password) };
  ben = { id: benUser.id, cookie: await signIn(b.url, benUser.email, benUser.password) };
}, 120_000);

afterAll(async () => {
  if (!onPostgres) return;
  for (const stream of streams) stream.close();
  // Undefined when a server did not start (beforeAll reports why).
  for (const server of servers) server.child.kill("SIGTERM");
  await Promise.all(servers.map((server) => exited(server.child)));
  await database.drop();
  folders.removeAll();
});

/** A new document, created by Anna on A: its edit page's path (`…/latest`) and id. */
async function newDocument(title: string) {
  const [a] = both();
  const created = await postForm(a.url, `/b/${bucket.slug}/new`, { __contentId: "", __baseVersionId: "", title, place: "" }, anna.cookie);
  expect(created.status).toBe(302);
  const path = created.headers.get("location")!.split("?")[0]!;
  expect(path).toMatch(new RegExp(`^/b/${bucket.slug}/[0-9a-f-]{36}/latest$`));
  return { path, contentId: path.split("/")[3]! };
}

/** Opens the edit page on `server`: its presence page id, the form's base version and who else it shows as here. */
async function openPage(server: Running, path: string, cookie: string) {
  const response = await get(server.url, path, cookie);
  const html = await response.text();
  expect(response.status).toBe(200);
  const pageId = /data-presence-page="([^"]+)"/.exec(html)?.[1];
  expect(pageId).toMatch(/^[0-9a-f-]{36}$/);
  const shown = [...html.matchAll(/data-presence-user="([^"]*)"/g)].map((match) => decode(match[1]!));
  return { pageId: pageId!, base: inputValue(html, "__baseVersionId")!, shown };
}

/** Opens the page's event stream on `server`, as the page's script does. */
async function stream(server: Running, path: string, pageId: string, cookie: string) {
  const opened = await openEventStream(server.url, `${path.replace(/\/latest$/, "")}/presence?page=${pageId}`, cookie);
  streams.push(opened);
  expect(opened.response.status).toBe(200);
  return opened;
}

/** Says whether the page has unsaved changes, as the page's script does. */
const putUnsaved = (server: Running, path: string, pageId: string, unsaved: boolean, cookie: string) =>
  fetch(`${server.url}${path.replace(/\/latest$/, "")}/presence`, {
    method: "PUT",
    redirect: "manual",
    headers: { Cookie: cookie, ...sameOrigin(server.url), "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ page: pageId, unsaved: String(unsaved) }),
  });

const editors = (data: unknown) => data as PresentEditor[];
const names = (data: unknown) => editors(data).map((editor) => editor.name);

/**
 * Marks where a stream is now: the answer waits for the first event after the mark with this name that matches (an
 * event that came while the test was acting counts; one read before the mark does not).
 */
function fromNow(opened: OpenEventStream) {
  const from = opened.events.length;
  return (event: string, matches: (data: unknown) => boolean = () => true) =>
    opened.next(event, matches, { from, timeoutMs: EVENT_DEADLINE_MS });
}
/** The first event the stream sends (or sent). */
const first = (opened: OpenEventStream, event: string) => opened.next(event, () => true, { timeoutMs: EVENT_DEADLINE_MS });

describe.skipIf(!onPostgres)("presence across two servers on one PostgreSQL database (TEST_DATABASE_URL)", () => {
  it("tells a page on A who opened the document on B, their unsaved changes, their save and their leaving", async () => {
    const [a, b] = both();
    const { path, contentId } = await newDocument("The dunes");

    const annaPage = await openPage(a, path, anna.cookie);
    expect(annaPage.shown).toEqual([]);
    const annaStream = await stream(a, path, annaPage.pageId, anna.cookie);
    expect(annaStream.response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(await first(annaStream, "editors")).toEqual([]);

    // Ben's page on B shows Anna (whose page A recorded) as of its load.
    let onA = fromNow(annaStream);
    const benPage = await openPage(b, path, ben.cookie);
    expect(benPage.shown).toEqual(["Anna Bakker"]);
    const benStream = await stream(b, path, benPage.pageId, ben.cookie);
    expect(await first(benStream, "editors")).toEqual([
      { userId: anna.id, name: "Anna Bakker", since: expect.any(String), unsaved: false },
    ]);
    // A heard of Ben's page shown on B, and told Anna's stream.
    expect(await onA("editors")).toEqual([{ userId: ben.id, name: "Ben de Vries", since: expect.any(String), unsaved: false }]);

    // Ben's unsaved changes, said to B, reach Anna's stream on A.
    onA = fromNow(annaStream);
    expect((await putUnsaved(b, path, benPage.pageId, true, ben.cookie)).status).toBe(204);
    expect(names(await onA("editors", (data) => editors(data)[0]?.unsaved === true))).toEqual(["Ben de Vries"]);

    // Ben's save on B: Anna's stream on A is told who saved which version.
    onA = fromNow(annaStream);
    const saved = await postForm(
      b.url,
      path,
      { __contentId: contentId, __baseVersionId: benPage.base, title: "The dunes", place: "Katwijk" },
      ben.cookie,
    );
    expect(saved.status).toBe(302);
    const told = (await onA("saved")) as SavedEvent;
    expect(told).toEqual({ versionId: expect.stringMatching(/^[0-9a-f-]{36}$/), author: "Ben de Vries", authorId: ben.id });
    expect(told.versionId).not.toBe(benPage.base);
    const { rows } = await database.db.query<{ latest: string }>("SELECT latest_version_id AS latest FROM contents WHERE content_id = $1", [
      contentId,
    ]);
    expect(told.versionId).toBe(rows[0]!.latest);

    // Anna's unsaved changes, said to A, reach Ben's stream on B: a later notice than the save's, so any "saved"
    // event B would tell Ben of his own save has arrived by then. It must not have.
    const onB = fromNow(benStream);
    expect((await putUnsaved(a, path, annaPage.pageId, true, anna.cookie)).status).toBe(204);
    await onB("editors", (data) => editors(data)[0]?.unsaved === true);
    expect(benStream.events.filter((entry) => entry.event === "saved")).toEqual([]);

    // Ben's stream closes on B: his row goes, and Anna's stream on A shows nobody else.
    onA = fromNow(annaStream);
    benStream.close();
    expect(await onA("editors", (data) => editors(data).length === 0)).toEqual([]);
    expect(annaStream.events.filter((entry) => entry.event === "deleted")).toEqual([]);
  });

  it("tells a page on A that the document was deleted through B", async () => {
    const [a, b] = both();
    const { path, contentId } = await newDocument("To be deleted");
    const annaPage = await openPage(a, path, anna.cookie);
    const annaStream = await stream(a, path, annaPage.pageId, anna.cookie);
    await first(annaStream, "editors");

    const benPage = await openPage(b, path, ben.cookie);
    const deleted = await postForm(b.url, `/b/${bucket.slug}?index`, { intent: "delete", contentId, versionId: benPage.base }, ben.cookie);
    expect(deleted.status).toBe(302);
    expect(await first(annaStream, "deleted")).toEqual({});
    const { rows } = await database.db.query("SELECT 1 FROM contents WHERE content_id = $1", [contentId]);
    expect(rows).toHaveLength(0);
  });
});

// Stops server B: last in the file.
describe.skipIf(!onPostgres)("presence across two servers, one of them stopped", () => {
  it("SIGTERM of B ends Ben's stream there, and Anna's stream on A is told he left", async () => {
    const [a, b] = both();
    const { path, contentId } = await newDocument("Stopping");
    const annaPage = await openPage(a, path, anna.cookie);
    const annaStream = await stream(a, path, annaPage.pageId, anna.cookie);
    const onA = fromNow(annaStream);
    const benPage = await openPage(b, path, ben.cookie);
    const benStream = await stream(b, path, benPage.pageId, ben.cookie);
    // Ben's first event means B made his row its own (a live page) before telling him.
    expect(names(await first(benStream, "editors"))).toEqual(["Anna Bakker"]);
    expect(names(await onA("editors", (data) => editors(data).length > 0))).toEqual(["Ben de Vries"]);
    const live = await database.db.query<{ server: string | null }>(
      "SELECT server_id AS server FROM presence WHERE content_id = $1 AND user_id = $2",
      [contentId, ben.id],
    );
    expect(live.rows).toEqual([{ server: expect.stringMatching(/^[0-9a-f-]{36}$/) }]);

    const leftOnA = fromNow(annaStream);
    b.child.kill("SIGTERM");
    // B ends the stream (a browser would reconnect, to A), removes its rows, and A tells Anna.
    await expect(first(benStream, "never")).rejects.toThrow(/ended/);
    expect(await leftOnA("editors", (data) => editors(data).length === 0)).toEqual([]);
    await exited(b.child);
    expect(b.child.exitCode).toBe(0);
    const { rows } = await database.db.query("SELECT 1 FROM presence WHERE content_id = $1 AND user_id = $2", [contentId, ben.id]);
    expect(rows).toHaveLength(0);
    // Anna's stream on A is still open and A still answers for her page.
    expect((await putUnsaved(a, path, annaPage.pageId, false, anna.cookie)).status).toBe(204);
    expect(annaStream.events.at(-1)).toEqual({ event: "editors", data: [] });
  });
});
