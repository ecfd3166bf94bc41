import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeApiClient } from "@server/accounts/api-clients";
import type { Bucket } from "@server/content/buckets";
import { deliveryClient } from "@tests/support/delivery";
import { createTestBucket } from "@tests/support/fixtures";
import { createTestUser, homeWith, postForm, postJson, sameOrigin, signIn } from "@tests/support/http";
import { exited, startProcess } from "@tests/support/media-server";
import { tempFolders } from "@tests/support/temp-folders";
import { createTestDatabase, TEST_SESSION_SECRET, type TestDatabase } from "@tests/support/server";

/*
 * Two servers (`npm start`, real processes) on one PostgreSQL database and one media directory, as
 * docs/operations.md deploys them: what one server changes holds on the other at its next request, and a save's
 * conflict is decided by the database, whichever server takes it. PostgreSQL only (PGlite is one process's).
 */

const onPostgres = process.env.VITRINE_TEST_DB === "postgres" && Boolean(process.env.TEST_DATABASE_URL);

type Running = Awaited<ReturnType<typeof startProcess>>;
let database: TestDatabase;
let servers: [Running, Running];
let bucket: Bucket;
const folders = tempFolders();
const folder = folders.make;

beforeAll(async () => {
  if (!onPostgres) return;
  database = await createTestDatabase();
  // A user exists: the servers start as on any later start (no demo content).
  await createTestUser(database.db, { permissions: ["user", "admin"] });
  bucket = await createTestBucket(database.db, {
    slug: "shared-rooms",
    collectionName: "shared-rooms",
    jsonSchema: { type: "object", properties: { title: { type: "string" }, floor: { type: "integer" } } },
  });
  const media = folder("vitrine-two-servers-media-");
  const env = (name: string) => ({
    DATABASE_URL: database.databaseUrl!,
    DATA_DIR: folder(`vitrine-two-servers-${name}-`),
    MEDIA_DIR: media,
    PORT: "0",
    HOST: "127.0.0.1",
    SESSION_SECRET: TEST_SESSION_SECRET,
    LOG_LEVEL: "warn",
    MEDIA_WORKERS: "0",
  });
  const [a, b] = await Promise.all([startProcess(env("a"), 90_000), startProcess(env("b"), 90_000)]);
  servers = [a, b];
}, 120_000);

afterAll(async () => {
  if (!onPostgres) return;
  for (const server of servers) server.child.kill("SIGTERM");
  await Promise.all(servers.map((server) => exited(server.child)));
  await database.drop();
  folders.removeAll();
});

describe.skipIf(!onPostgres)("two servers on one PostgreSQL database (TEST_DATABASE_URL)", () => {
  it("share a session, and a sign-out on one ends it on the other", async () => {
    const [a, b] = servers;
    const editor = await createTestUser(database.db);
    const cookie = await signIn(a.url, editor.email, editor.password);
    expect(await homeWith(b.url, cookie)).toBe("signed in");
    expect((await postForm(a.url, "/logout", {}, cookie)).status).toBe(302);
    expect(await homeWith(b.url, cookie)).toBe("/login");
  });

  it("tag a delivery answer and name their assets alike, and refuse an API client at the next request after it was revoked", async () => {
    const [a, b] = servers;
    const admin = await createTestUser(database.db, { permissions: ["user", "admin"] });
    const { client, token } = await deliveryClient(database.db, { read: [bucket.slug] });
    const read = (server: Running) =>
      fetch(`${server.url}/api/v1/delivery/buckets/${bucket.slug}/documents`, { headers: { Authorization: `Bearer ${token}` } });
    const [fromA, fromB] = [await read(a), await read(b)];
    expect([fromA.status, fromB.status]).toEqual([200, 200]);
    // Servers of one build and one secret tag the same answer alike: an exhibit's cache holds across them.
    expect(fromA.headers.get("etag")).toBeTruthy();
    expect(fromB.headers.get("etag")).toBe(fromA.headers.get("etag"));
    const script = /src="(\/assets\/[^"]+\.js)"|href="(\/assets\/[^"]+\.js)"/;
    const [pageA, pageB] = await Promise.all(
      [a, b].map(async (server) => script.exec(await (await fetch(`${server.url}/login`)).text())?.[0]),
    );
    expect(pageA).toBeTruthy();
    expect(pageB).toBe(pageA);
    expect(await revokeApiClient(database.db, admin, client.id)).toBe(true);
    expect((await read(b)).status).toBe(401);
    expect((await read(a)).status).toBe(401);
  });

  it("let one of 100 stale saves split across both win; the other 99 answer 409", async () => {
    const [a, b] = servers;
    const editor = await createTestUser(database.db);
    const cookies = [await signIn(a.url, editor.email, editor.password), await signIn(b.url, editor.email, editor.password)];
    const save = (index: number, content: unknown) => {
      const server = servers[index % 2]!;
      return fetch(`${server.url}/api/v1/buckets/${bucket.slug}/save`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: cookies[index % 2]!, ...sameOrigin(server.url) },
        body: JSON.stringify({ content, collection: bucket.collectionName }),
      });
    };
    const created = await save(0, { title: "Hall", floor: 0 });
    expect(created.status).toBe(201);
    const base = (await created.json()) as Record<string, unknown>;
    const statuses = (await Promise.all(Array.from({ length: 100 }, (_, index) => save(index, { ...base, floor: index + 1 })))).map(
      (response) => response.status,
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(99);
    const { rows } = await database.db.query<{ n: number }>("SELECT count(*)::int AS n FROM versions WHERE content_id = $1", [
      base.contentId,
    ]);
    expect(rows[0]!.n).toBe(2);
  });

  it("validate by a schema changed, and serve a bucket renamed, through the other's screens at the next request", async () => {
    const [a, b] = servers;
    const admin = await createTestUser(database.db, { permissions: ["user", "admin"] });
    const [onA, onB] = [await signIn(a.url, admin.email, admin.password), await signIn(b.url, admin.email, admin.password)];
    const schema = { type: "object", properties: { title: { type: "string" } } };
    const fields = {
      intent: "save",
      slug: "before-rename",
      name: "Halls",
      collectionName: "halls",
      locales: "en",
      jsonSchema: JSON.stringify(schema),
    };
    expect((await postForm(a.url, "/settings/buckets/new", fields, onA)).status).toBe(302);
    const saveOnB = (slug: string) => postJson(b.url, `/api/v1/buckets/${slug}/save`, { content: { title: "Hall", floor: 2 } }, onB);
    expect((await saveOnB("before-rename")).status, "floor is not in the schema yet").toBe(422);

    const changed = { ...schema, properties: { ...schema.properties, floor: { type: "integer" } } };
    const edited = await postForm(
      a.url,
      "/settings/buckets/before-rename",
      { ...fields, slug: "after-rename", jsonSchema: JSON.stringify(changed) },
      onA,
    );
    expect(edited.status, await edited.clone().text()).toBe(302);
    expect((await saveOnB("after-rename")).status).toBe(201);
    const visit = (address: string) => fetch(`${b.url}${address}`, { headers: { Cookie: onB }, redirect: "manual" });
    expect((await visit("/b/after-rename")).status).toBe(200);
    // The old address sends on to the new one.
    const old = await visit("/b/before-rename");
    expect([old.status, old.headers.get("location")]).toEqual([301, "/b/after-rename"]);
  });

  it("hold a permission taken away through the other's user screen at the next request", async () => {
    const [a, b] = servers;
    const admin = await createTestUser(database.db, { permissions: ["user", "admin"] });
    const member = await createTestUser(database.db, { permissions: ["user", "admin"] });
    const memberOnB = await signIn(b.url, member.email, member.password);
    const settings = async (cookie: string) =>
      (await fetch(`${b.url}/settings/users`, { headers: { Cookie: cookie }, redirect: "manual" })).status;
    expect(await settings(memberOnB)).toBe(200);
    const taken = await fetch(`${a.url}/settings/users/${member.id}`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Cookie: await signIn(a.url, admin.email, admin.password),
        ...sameOrigin(a.url),
      },
      body: new URLSearchParams([
        ["name", member.name],
        ["email", member.email],
        ["permissions", "user"],
      ]),
    });
    expect(taken.status).toBe(302);
    // Changing a user's permissions ends their sessions; signed in again, the member is no admin on B either.
    expect(await homeWith(b.url, memberOnB)).toBe("/login");
    expect(await settings(await signIn(b.url, member.email, member.password))).not.toBe(200);
  });
});

/** Editors saving new documents on a server as fast as it answers, until told to stop or it stops answering. */
function saveLoad(server: Running, cookie: string, prefix: string) {
  const acknowledged: string[] = [];
  let stopped = false;
  let refused = false;
  const editor = async (name: string) => {
    for (let i = 0; !stopped; i += 1) {
      const title = `${prefix}-${name}-${i}`;
      try {
        const response = await fetch(`${server.url}/api/v1/buckets/${bucket.slug}/save`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Cookie: cookie, ...sameOrigin(server.url) },
          body: JSON.stringify({ content: { title }, collection: bucket.collectionName }),
        });
        if (response.status === 201) acknowledged.push(title);
        else await response.body?.cancel();
      } catch {
        refused = true; // the server is gone: this editor stops
        return;
      }
    }
  };
  const editors = Promise.all(["x", "y", "z"].map(editor));
  return {
    acknowledged,
    get refused() {
      return refused;
    },
    async stop() {
      stopped = true;
      await editors;
    },
  };
}

const committedTitles = async (prefix: string) =>
  (
    await database.db.query<{ title: string }>("SELECT data->>'title' AS title FROM versions WHERE data->>'title' LIKE $1", [`${prefix}-%`])
  ).rows
    .map((row) => row.title)
    .sort();

describe.skipIf(!onPostgres)("two servers, one of them stopped under a save load", () => {
  it("kill -9 of one loses no save it acknowledged; the other goes on saving", async () => {
    const [a, b] = servers;
    const editor = await createTestUser(database.db);
    const onA = saveLoad(a, await signIn(a.url, editor.email, editor.password), "killed");
    const onB = saveLoad(b, await signIn(b.url, editor.email, editor.password), "survivor");
    await expect.poll(() => onA.acknowledged.length, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(15);
    a.child.kill("SIGKILL");
    await exited(a.child);
    const before = onB.acknowledged.length;
    await expect.poll(() => onB.acknowledged.length, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(before + 10);
    await Promise.all([onA.stop(), onB.stop()]);
    const committed = new Set(await committedTitles("killed"));
    expect(onA.acknowledged.filter((title) => !committed.has(title))).toEqual([]);
    expect(await committedTitles("survivor")).toEqual([...onB.acknowledged].sort());
  });

  it("SIGTERM under a save load answers every save it committed, then exits 0", async () => {
    const [, b] = servers;
    const editor = await createTestUser(database.db);
    const load = saveLoad(b, await signIn(b.url, editor.email, editor.password), "stopping");
    await expect.poll(() => load.acknowledged.length, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(15);
    b.child.kill("SIGTERM");
    await expect.poll(() => load.refused, { timeout: 30_000, interval: 20 }).toBe(true);
    await load.stop();
    await exited(b.child);
    expect(b.child.exitCode).toBe(0);
    // Nothing committed without its answer reaching the editor (nor the other way round).
    expect(await committedTitles("stopping")).toEqual([...load.acknowledged].sort());
  });
});
