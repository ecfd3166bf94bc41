import { createCookie } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken, randomToken } from "@server/security/tokens";
import { createTestBucket, page, signedInUser, topBarBucketLinks } from "@tests/support/fixtures";
import { createTestUser, get, homeWith, postForm, postJson, signIn } from "@tests/support/http";
import { startTestServer, TEST_SESSION_SECRET, type TestServer } from "@tests/support/server";

/*
 * What every request reads is kept per process on PGlite (server/db/read-cache.ts): the session's user and the
 * buckets. Every way a session ends or its user changes, and every change of a bucket, must show on the very next
 * request. Each test first uses the session (so its user and the buckets are cached), then changes them through
 * the product (or the database, as a script would), then asks again. On PostgreSQL nothing is cached and the same
 * answers hold.
 */

let server: TestServer;
let admin: string;
let counter = 0;
const unique = (label: string) => `${label}-${++counter}-${Date.now().toString(36)}`;

beforeAll(async () => {
  server = await startTestServer();
  admin = (await signedInUser(server.url, server.db, { name: "Admin Ada", permissions: ["user", "admin"] })).cookie;
});
afterAll(() => server.stop());

/** A request that reads (and on PGlite caches) the session's user and the bucket list: it must be signed in. */
async function use(cookie: string): Promise<string> {
  const home = await page(server.url, "/", cookie);
  expect(home.status).toBe(200);
  return home.html;
}

async function tokenOf(cookie: string): Promise<string> {
  const [name] = cookie.split("=");
  const data = (await createCookie(name!, { secrets: [TEST_SESSION_SECRET] }).parse(cookie)) as { token: string };
  return data.token;
}

const navigation = async (cookie: string) => (topBarBucketLinks(await use(cookie)) ?? []).map((link) => link.text);

/** The admin's user form (/settings/users/{id}): name, email, permissions, buckets. */
function saveUser(user: { id: string; name: string; email: string }, permissions: string[], buckets: string[] = []) {
  const body = new URLSearchParams([
    ["name", user.name],
    ["email", user.email],
    ...permissions.map((p) => ["permissions", p]),
    ...buckets.map((b) => ["buckets", b]),
  ]);
  return fetch(`${server.url}/settings/users/${user.id}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: admin, Origin: server.url },
    body,
  });
}

describe("a cached session ends on the very next request", () => {
  it("when it signs out (a copy of its cookie is refused)", async () => {
    const { cookie } = await signedInUser(server.url, server.db);
    await use(cookie);
    expect((await get(server.url, "/logout", cookie)).status).toBe(302);
    expect(await homeWith(server.url, cookie)).toBe("/login");
  });

  it("when another session of the user signs it out (/profile, one session)", async () => {
    const user = await createTestUser(server.db);
    const here = await signIn(server.url, user.email, user.password);
    const there = await signIn(server.url, user.email, user.password);
    await use(there);
    const ended = await postForm(server.url, "/profile", { intent: "signOutSession", sessionId: hashToken(await tokenOf(there)) }, here);
    expect(ended.status).toBe(302);
    expect(await homeWith(server.url, there)).toBe("/login");
    expect(await homeWith(server.url, here)).toBe("signed in");
  });

  it("when the user signs out everywhere", async () => {
    const user = await createTestUser(server.db);
    const one = await signIn(server.url, user.email, user.password);
    const two = await signIn(server.url, user.email, user.password);
    await use(two);
    expect((await postForm(server.url, "/profile", { intent: "signOutEverywhere" }, one)).status).toBe(302);
    expect(await homeWith(server.url, two)).toBe("/login");
  });

  it("when the user changes the password in another session", async () => {
    const user = await createTestUser(server.db);
    const here = await signIn(server.url, user.email, user.password);
    const there = await signIn(server.url, user.email, user.password);
    await use(there);
    const changed = await postForm(
      server.url,
      "/profile",
      {
        intent: "password",
        currentPassword: user.password,
        newPassword: "another long passphrase",
        confirmPassword: "another long passphrase",
      },
      here,
    );
    expect(changed.status).toBe(302);
    expect(await homeWith(server.url, there)).toBe("/login");
    expect(await homeWith(server.url, here)).toBe("signed in");
  });

  it("when the password is reset through a mailed link", async () => {
    const user = await createTestUser(server.db);
    const cookie = await signIn(server.url, user.email, user.password);
    await use(cookie);
    const token = randomToken(32);
    await server.db.query(`INSERT INTO password_resets (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')`, [
      hashToken(token),
      user.id,
    ]);
    const reset = await postForm(server.url, `/password-reset/${token}`, {
      password: "a reset passphrase",
      confirmPassword: "a reset passphrase",
    });
    expect(reset.status).toBe(302);
    expect(await homeWith(server.url, cookie)).toBe("/login");
  });

  it("when an admin deactivates the user", async () => {
    const user = await createTestUser(server.db);
    const cookie = await signIn(server.url, user.email, user.password);
    await use(cookie);
    expect((await postForm(server.url, `/settings/users/${user.id}`, { intent: "deactivate" }, admin)).status).toBe(302);
    expect(await homeWith(server.url, cookie)).toBe("/login");
  });

  it("when an admin takes a permission away", async () => {
    const user = await createTestUser(server.db, { permissions: ["user", "dev"] });
    const cookie = await signIn(server.url, user.email, user.password);
    await use(cookie);
    expect((await saveUser(user, ["user"])).headers.get("location")).toBe(`/settings/users/${user.id}?done=signedOut`);
    expect(await homeWith(server.url, cookie)).toBe("/login");
  });

  it("when its row expires, changed by a script", async () => {
    const user = await createTestUser(server.db);
    const cookie = await signIn(server.url, user.email, user.password);
    await use(cookie);
    await server.db.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [user.id]);
    expect(await homeWith(server.url, cookie)).toBe("/login");
  });

  it("when its time runs out, with nothing written", async () => {
    const user = await createTestUser(server.db);
    const cookie = await signIn(server.url, user.email, user.password);
    // Room for a busy machine between the update and the first use, which must still find the session alive.
    await server.db.query(`UPDATE sessions SET expires_at = now() + interval '8 seconds' WHERE user_id = $1`, [user.id]);
    await use(cookie);
    const deadline = Date.now() + 25_000;
    let where = await homeWith(server.url, cookie);
    while (where === "signed in" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      where = await homeWith(server.url, cookie);
    }
    expect(where).toBe("/login");
  }, 45_000);
});

describe("a cached user changes on the very next request", () => {
  it("when an admin gives the user another bucket (the session stays)", async () => {
    const alpha = await createTestBucket(server.db, { name: unique("Alpha") });
    const beta = await createTestBucket(server.db, { name: unique("Beta") });
    const user = await createTestUser(server.db, { buckets: [alpha.slug] });
    const cookie = await signIn(server.url, user.email, user.password);
    expect(await navigation(cookie)).toEqual([alpha.name]);
    expect((await saveUser(user, ["user"], [alpha.slug, beta.slug])).headers.get("location")).toBe(`/settings/users/${user.id}?done=saved`);
    expect(await navigation(cookie)).toEqual(expect.arrayContaining([alpha.name, beta.name]));
    expect((await get(server.url, `/b/${beta.slug}`, cookie)).status).toBe(200);
  });

  it("when the user renames themselves on /profile", async () => {
    const { cookie } = await signedInUser(server.url, server.db, { name: "Old Name" });
    expect(await use(cookie)).toContain("Old Name");
    expect((await postForm(server.url, "/profile", { intent: "details", name: "Fresh Name", locale: "en" }, cookie)).status).toBe(302);
    const html = await use(cookie);
    expect(html).toContain("Fresh Name");
    expect(html).not.toContain("Old Name");
  });
});

describe("cached buckets change on the very next request", () => {
  const SCHEMA = { type: "object", properties: { title: { type: "string", title: "Title" } } };

  function bucketForm(slug: string, overrides: Record<string, string> = {}) {
    return {
      intent: "save",
      slug,
      name: `Bucket ${slug}`,
      collectionName: slug,
      locales: "en",
      jsonSchema: JSON.stringify(SCHEMA),
      ...overrides,
    };
  }

  async function createThroughForm(slug: string) {
    const response = await postForm(server.url, "/settings/buckets/new", bucketForm(slug), admin);
    expect(response.status).toBe(302);
  }

  it("a new bucket shows in the navigation", async () => {
    const { cookie } = await signedInUser(server.url, server.db);
    const slug = unique("added");
    expect(await navigation(cookie)).not.toContain(`Bucket ${slug}`);
    await createThroughForm(slug);
    expect(await navigation(cookie)).toContain(`Bucket ${slug}`);
  });

  it("a renamed bucket shows its new name, and its old slug redirects", async () => {
    const { cookie } = await signedInUser(server.url, server.db);
    const slug = unique("named");
    await createThroughForm(slug);
    expect(await navigation(cookie)).toContain(`Bucket ${slug}`);
    expect((await get(server.url, `/b/${slug}`, cookie)).status).toBe(200);
    expect((await get(server.url, `/api/v1/buckets/${slug}/schema`, cookie)).status).toBe(200);
    const renamed = unique("renamed");
    const saved = await postForm(server.url, `/settings/buckets/${slug}`, bucketForm(slug, { slug: renamed, name: "Another Name" }), admin);
    expect(saved.headers.get("location")).toBe(`/settings/buckets/${renamed}?saved`);
    const names = await navigation(cookie);
    expect(names).toContain("Another Name");
    expect(names).not.toContain(`Bucket ${slug}`);
    const old = await get(server.url, `/b/${slug}`, cookie);
    expect(old.status).toBe(301);
    expect(old.headers.get("location")).toBe(`/b/${renamed}`);
  });

  it("a bucket made private is gone from the navigation, its pages and the JSON API", async () => {
    const { cookie } = await signedInUser(server.url, server.db);
    const slug = unique("hidden");
    await createThroughForm(slug);
    expect(await navigation(cookie)).toContain(`Bucket ${slug}`);
    expect((await postJson(server.url, `/api/v1/buckets/${slug}/save`, { content: { title: "Seen" } }, cookie)).status).toBe(201);
    expect((await postForm(server.url, `/settings/buckets/${slug}`, bucketForm(slug, { private: "on" }), admin)).status).toBe(302);
    expect(await navigation(cookie)).not.toContain(`Bucket ${slug}`);
    expect((await get(server.url, `/b/${slug}`, cookie)).status).toBe(404);
    expect((await postJson(server.url, `/api/v1/buckets/${slug}/save`, { content: { title: "Hidden" } }, cookie)).status).toBe(404);
  });

  it("a deleted bucket is gone", async () => {
    const { cookie } = await signedInUser(server.url, server.db);
    const slug = unique("deleted");
    await createThroughForm(slug);
    expect(await navigation(cookie)).toContain(`Bucket ${slug}`);
    expect((await get(server.url, `/api/v1/buckets/${slug}/schema`, cookie)).status).toBe(200);
    expect((await postForm(server.url, `/settings/buckets/${slug}`, { intent: "delete" }, admin)).status).toBe(302);
    expect(await navigation(cookie)).not.toContain(`Bucket ${slug}`);
    expect((await get(server.url, `/api/v1/buckets/${slug}/schema`, cookie)).status).toBe(404);
  });

  it("a changed schema is the one the next save is validated against", async () => {
    const { cookie } = await signedInUser(server.url, server.db);
    const slug = unique("schema");
    await createThroughForm(slug);
    expect((await postJson(server.url, `/api/v1/buckets/${slug}/save`, { content: { title: "Before" } }, cookie)).status).toBe(201);
    const stricter = { ...SCHEMA, properties: { ...SCHEMA.properties, code: { type: "string", title: "Code" } }, required: ["code"] };
    const saved = await postForm(
      server.url,
      `/settings/buckets/${slug}`,
      bucketForm(slug, { jsonSchema: JSON.stringify(stricter), confirmBreaking: "on" }),
      admin,
    );
    expect(saved.headers.get("location")).toBe(`/settings/buckets/${slug}?saved`);
    expect((await postJson(server.url, `/api/v1/buckets/${slug}/save`, { content: { title: "After" } }, cookie)).status).toBe(422);
    expect((await postJson(server.url, `/api/v1/buckets/${slug}/save`, { content: { title: "After", code: "A1" } }, cookie)).status).toBe(
      201,
    );
  });

  it("a script's change to a bucket's row shows too", async () => {
    const { cookie } = await signedInUser(server.url, server.db);
    const bucket = await createTestBucket(server.db, { name: unique("Scripted") });
    expect(await navigation(cookie)).toContain(bucket.name);
    await server.db.query(`UPDATE buckets SET name = $2 WHERE id = $1`, [bucket.id, `${bucket.name} (renamed)`]);
    expect(await navigation(cookie)).toContain(`${bucket.name} (renamed)`);
  });
});

describe("the triggers that empty the cache", () => {
  it("fire on a change to any column of buckets: a new column needs no line in them", async () => {
    const { rows } = await server.db.query<{ definition: string }>(
      `SELECT pg_get_triggerdef(t.oid) AS definition FROM pg_trigger t WHERE t.tgrelid = 'buckets'::regclass AND NOT t.tgisinternal`,
    );
    // "UPDATE OF <columns>" would watch only those.
    expect(rows.map((row) => row.definition)).toEqual([
      expect.stringMatching(/ AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON \S*buckets FOR EACH STATEMENT /),
    ]);
  });
});
