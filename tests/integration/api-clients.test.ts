import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiClient } from "@server/accounts/api-clients";
import type { User } from "@server/accounts/users";
import type { Bucket } from "@server/content/buckets";
import { createContent } from "@server/content/store";
import { hashToken } from "@server/security/tokens";
import { createTestBucket, decode, errorPage, page, signedInUser } from "@tests/support/fixtures";
import { fieldErrorText, get, inputValue, postJson, sameOrigin } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * API clients (/settings/new-client): an admin creates one (the token shown once, kept hashed), the list shows
 * its last use, revoke ends access at once. Until the delivery API exists, the JSON API's bucket calls accept
 * `Authorization: Bearer <clientId>.<secret>` within the client's bucket scope; a bearer request is never
 * cookie-authenticated.
 */

const INVALID_TOKEN = "Invalid API client credentials: the token is unknown, revoked or expired";
const NO_SUCH_BUCKET = "No such bucket";

let server: TestServer;
let admin: { user: User; cookie: string };
let member: { user: User; cookie: string };
let artworks: Bucket;
let notes: Bucket;
let counter = 0;

beforeAll(async () => {
  server = await startTestServer();
  artworks = await createTestBucket(server.db, { slug: "artworks", name: "Artworks", collectionName: "artworks" });
  notes = await createTestBucket(server.db, { slug: "notes", name: "Notes", collectionName: "notes" });
  await createTestBucket(server.db, { slug: "vault", name: "Vault", collectionName: "vault", private: true });
  admin = await signedInUser(server.url, server.db, { name: "Ada Admin", permissions: ["user", "admin"] });
  member = await signedInUser(server.url, server.db, { name: "Mia Member" });
});
afterAll(() => server.stop());

/** A browser's form post: repeated names (read=a&read=b) and the page's origin. */
function postClientForm(fields: Array<[string, string]>, cookie = admin.cookie) {
  return fetch(`${server.url}/settings/new-client`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, ...sameOrigin(server.url) },
    body: new URLSearchParams(fields),
  });
}

/** An element's text: tags and React's text separators out, spaces collapsed. */
const textOf = (html: string) =>
  decode(
    html
      .replace(/<!-- -->/g, "")
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ")
      .replace(/ ([:.,])/g, "$1"),
  ).trim();

const tokenIn = (html: string) => /data-client-token="true"[^>]*value="([^"]+)"/.exec(html)?.[1] ?? null;

async function clientRow(id: string) {
  const { rows } = await server.db.query<{
    name: string;
    secretHash: string;
    readBuckets: string[];
    writeBuckets: string[];
    revokedAt: Date | null;
    lastUsedAt: Date | null;
  }>(
    `SELECT name, secret_hash AS "secretHash", read_buckets AS "readBuckets", write_buckets AS "writeBuckets", revoked_at AS "revokedAt", last_used_at AS "lastUsedAt"
     FROM api_clients WHERE id = $1`,
    [id],
  );
  return rows[0];
}

/** A client made directly (the form has its own tests): its token. */
async function newClient(scope: { read?: string[]; write?: string[]; expiresAt?: Date | null } = {}) {
  const { client, token } = await createApiClient(server.db, admin.user, {
    name: `Kiosk ${++counter}`,
    readBuckets: scope.read ?? [],
    writeBuckets: scope.write ?? [],
    expiresAt: scope.expiresAt ?? null,
  });
  return { client, token };
}

function bearer(path: string, token: string, init: Omit<RequestInit, "headers"> & { headers?: Record<string, string> } = {}) {
  return fetch(`${server.url}${path}`, { redirect: "manual", ...init, headers: { Authorization: `Bearer ${token}`, ...init.headers } });
}
const saveWith = (token: string, slug: string, content: Record<string, unknown>, headers: Record<string, string> = {}) =>
  bearer(`/api/v1/buckets/${slug}/save`, token, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ content }),
  });

describe("the /settings/new-client page (admins only)", () => {
  it("sends anonymous visitors to sign in and members home, for the page and its form post, creating nothing", async () => {
    expect((await get(server.url, "/settings/new-client")).headers.get("location")).toBe("/login?from_url=%2Fsettings%2Fnew-client");
    expect((await get(server.url, "/settings/new-client", member.cookie)).headers.get("location")).toBe("/?notice=admin-only");
    const before = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM api_clients");
    const posted = await postClientForm(
      [
        ["intent", "create"],
        ["name", "Sneaky"],
        ["read", "artworks"],
      ],
      member.cookie,
    );
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toBe("/?notice=admin-only");
    const after = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM api_clients");
    expect(after.rows[0]!.count).toBe(before.rows[0]!.count);
  });

  it("shows every bucket to choose from, private ones too, and no placeholder", async () => {
    const { status, html } = await page(server.url, "/settings/new-client", admin.cookie);
    expect(status).toBe(200);
    expect(errorPage(html)).toBeNull();
    expect(html).not.toContain("data-placeholder");
    for (const slug of ["artworks", "notes", "vault"]) {
      expect(html).toContain(`name="read" value="${slug}"`);
      expect(html).toContain(`name="write" value="${slug}"`);
    }
  });

  it("creates a client from a plain form post: the token is shown once, kept only as a hash, and the change is recorded", async () => {
    const response = await postClientForm([
      ["intent", "create"],
      ["name", "Entrance kiosk"],
      ["read", "artworks"],
      ["write", "notes"],
      ["expiresOn", "2999-12-31"],
    ]);
    expect(response.status).toBe(201);
    expect(response.headers.get("location")).toBeNull();
    const html = await response.text();
    expect(decode(html)).toContain("API client 'Entrance kiosk' created");
    const token = tokenIn(html);
    expect(token).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
    const [id, secret] = token!.split(".") as [string, string];
    expect(html).toContain(`Authorization: Bearer ${token}`);

    const row = await clientRow(id);
    expect(row).toMatchObject({
      name: "Entrance kiosk",
      readBuckets: ["artworks", "notes"],
      writeBuckets: ["notes"],
      revokedAt: null,
      lastUsedAt: null,
    });
    expect(row!.secretHash).toBe(hashToken(secret));
    expect(JSON.stringify(await server.db.query("SELECT * FROM api_clients"))).not.toContain(secret);

    // Never again: the list shows the client, its scope and 'Never' used, not its secret.
    const list = (await page(server.url, "/settings/new-client", admin.cookie)).html;
    expect(list).not.toContain(secret);
    const card = new RegExp(`<li id="client-${id}" class="client-card" data-client="${id}" data-status="expires">([\\s\\S]*?)</li>`).exec(
      list,
    )?.[1];
    expect(card).toBeDefined();
    const text = textOf(card!);
    expect(text).toContain("Entrance kiosk");
    expect(text).toContain("Reads: Artworks, Notes");
    expect(text).toContain("Writes: Notes");
    expect(text).toContain("Last used: Never");
    expect(text).toMatch(/Active until Dec 31, 2999/);

    const { rows } = await server.db.query<{ actorName: string; action: string; subject: string; details: { id: string } }>(
      `SELECT actor_name AS "actorName", action, subject, details FROM admin_activity WHERE area = 'client' AND details->>'id' = $1`,
      [id],
    );
    expect(rows).toEqual([expect.objectContaining({ actorName: "Ada Admin", action: "created", subject: "Entrance kiosk" })]);
  });

  it("refuses a form without a name, without buckets, with an unknown bucket or a bad expiry, keeping the input", async () => {
    const cases: Array<{ fields: Array<[string, string]>; field: string; message: string }> = [
      {
        fields: [
          ["name", ""],
          ["read", "artworks"],
        ],
        field: "name",
        message: "Enter a name",
      },
      { fields: [["name", "No scope"]], field: "read", message: "Choose at least one bucket to read or write" },
      {
        fields: [
          ["name", "Ghost"],
          ["read", "no-such-bucket"],
        ],
        field: "read",
        message: "There is no bucket 'no-such-bucket'",
      },
      {
        fields: [
          ["name", "Past"],
          ["read", "artworks"],
          ["expiresOn", "2001-01-01"],
        ],
        field: "expiresOn",
        message: "The expiry date cannot be in the past",
      },
      {
        fields: [
          ["name", "Nonsense"],
          ["read", "artworks"],
          ["expiresOn", "2030-02-31"],
        ],
        field: "expiresOn",
        message: "Enter a date (YYYY-MM-DD)",
      },
    ];
    const before = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM api_clients");
    for (const { fields, field, message } of cases) {
      const response = await postClientForm([["intent", "create"], ...fields]);
      expect(response.status, message).toBe(400);
      const html = await response.text();
      expect(fieldErrorText(html, field), message).toBe(message);
      expect(tokenIn(html)).toBeNull();
      const name = fields.find(([key]) => key === "name")![1];
      if (name) expect(inputValue(html, "name")).toBe(name);
    }
    const after = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM api_clients");
    expect(after.rows[0]!.count).toBe(before.rows[0]!.count);
  });

  it("revokes a client: its token stops working at once, the list says so, and the change is recorded", async () => {
    const { client, token } = await newClient({ read: ["artworks"] });
    expect((await bearer("/api/v1/buckets/artworks/schema", token)).status).toBe(200);
    const response = await postClientForm([
      ["intent", "revoke"],
      ["clientId", client.id],
    ]);
    expect(response.status).toBe(302);
    const location = response.headers.get("location")!;
    expect(location).toBe(`/settings/new-client?revoked=${client.id}`);
    expect(decode((await page(server.url, location, admin.cookie)).html)).toContain(
      `API client '${client.name}' revoked: its token no longer works.`,
    );
    expect((await clientRow(client.id))!.revokedAt).toBeInstanceOf(Date);

    const refused = await bearer("/api/v1/buckets/artworks/schema", token);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: INVALID_TOKEN });

    const { rows } = await server.db.query<{ action: string }>(
      `SELECT action FROM admin_activity WHERE area = 'client' AND details->>'id' = $1 ORDER BY created_at`,
      [client.id],
    );
    expect(rows.map((row) => row.action)).toEqual(["created", "revoked"]);

    const again = await postClientForm([
      ["intent", "revoke"],
      ["clientId", client.id],
    ]);
    expect(again.status).toBe(404);
    expect(decode(await again.text())).toContain("This client is already revoked, or does not exist");
  });
});

describe("Bearer tokens on the JSON API", () => {
  it("read the buckets of the client's scope: schema, a document, the collection's documents", async () => {
    const { token } = await newClient({ read: ["artworks"] });
    const doc = await createContent(server.db, artworks.id, { title: "Mudflats" }, null);
    const schema = await bearer("/api/v1/buckets/artworks/schema", token);
    expect(schema.status).toBe(200);
    expect(await schema.json()).toMatchObject({ slug: "artworks", collectionName: "artworks" });
    const one = await bearer(`/api/v1/buckets/artworks/content/${doc.contentId}/latest`, token);
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({ contentId: doc.contentId, title: "Mudflats" });
    const all = await bearer("/api/v1/buckets/any/content?collection=artworks", token);
    expect(all.status).toBe(200);
    expect((await all.json()) as unknown[]).toContainEqual(expect.objectContaining({ contentId: doc.contentId }));
  });

  it("answer 404 for a bucket outside the scope, as for one that does not exist (private or not)", async () => {
    const { token } = await newClient({ read: ["artworks"] });
    const doc = await createContent(server.db, notes.id, { title: "Hidden" }, null);
    for (const path of [
      "/api/v1/buckets/notes/schema",
      `/api/v1/buckets/notes/content/${doc.contentId}/latest`,
      "/api/v1/buckets/any/content?collection=notes",
      "/api/v1/buckets/vault/schema",
      "/api/v1/buckets/no-such-bucket/schema",
    ]) {
      const response = await bearer(path, token);
      expect(response.status, path).toBe(404);
      expect(await response.json(), path).toEqual({ error: NO_SUCH_BUCKET });
    }
  });

  it("open a private bucket when the admin put it in the scope", async () => {
    const { token } = await newClient({ read: ["vault"] });
    expect((await bearer("/api/v1/buckets/vault/schema", token)).status).toBe(200);
  });

  it("save and delete only in the write scope; a client's version records no user", async () => {
    const { token } = await newClient({ read: ["artworks"], write: ["notes"] });
    const readOnly = await saveWith(token, "artworks", { title: "Forged" });
    expect(readOnly.status).toBe(404);
    expect(await readOnly.json()).toEqual({ error: NO_SUCH_BUCKET });

    const saved = await saveWith(token, "notes", { title: "From the kiosk" });
    expect(saved.status).toBe(201);
    const document = (await saved.json()) as { contentId: string; _id: string };
    const { rows } = await server.db.query<{ createdBy: string | null }>(
      `SELECT created_by AS "createdBy" FROM versions WHERE version_id = $1`,
      [document._id],
    );
    expect(rows).toEqual([{ createdBy: null }]);

    // Reading a bucket it writes needs no separate read grant.
    expect((await bearer(`/api/v1/buckets/notes/content/${document.contentId}/latest`, token)).status).toBe(200);

    const doc = await createContent(server.db, artworks.id, { title: "Stays" }, null);
    const refusedDelete = await bearer(`/api/v1/buckets/artworks/content/${doc.contentId}/${doc.versionId}`, token, { method: "DELETE" });
    expect(refusedDelete.status).toBe(404);
    const deleted = await bearer(`/api/v1/buckets/notes/content/${document.contentId}/${document._id}`, token, { method: "DELETE" });
    expect(deleted.status).toBe(204);
  });

  it("refuse an unknown, malformed, wrong, revoked or expired token with 401", async () => {
    const { client, token } = await newClient({ read: ["artworks"] });
    const [, secret] = token.split(".");
    const expired = await newClient({ read: ["artworks"], expiresAt: new Date(Date.now() - 1000) });
    const revoked = await newClient({ read: ["artworks"] });
    await server.db.query("UPDATE api_clients SET revoked_at = now() WHERE id = $1", [revoked.client.id]);
    const bad = [
      "",
      "garbage",
      secret!,
      `${client.id}.${"A".repeat(43)}`,
      `00000000-0000-4000-8000-000000000000.${secret}`,
      `${client.id}.${secret}x`,
      expired.token,
      revoked.token,
    ];
    for (const candidate of bad) {
      const response = await bearer("/api/v1/buckets/artworks/schema", candidate);
      expect(response.status, candidate).toBe(401);
      expect(response.headers.get("www-authenticate"), candidate).toContain("Bearer");
      expect(await response.json(), candidate).toEqual({ error: INVALID_TOKEN });
    }
    // The same token, right, still works: nothing above locked it.
    expect((await bearer("/api/v1/buckets/artworks/schema", token)).status).toBe(200);
  });

  it("note the client's last use at most once a minute", async () => {
    const { client, token } = await newClient({ read: ["artworks"] });
    const lastUsed = async () => (await clientRow(client.id))!.lastUsedAt;
    expect(await lastUsed()).toBeNull();
    await bearer("/api/v1/buckets/artworks/schema", token);
    const first = await lastUsed();
    expect(first).toBeInstanceOf(Date);

    // Within the minute: no write.
    await server.db.query("UPDATE api_clients SET last_used_at = now() - interval '30 seconds' WHERE id = $1", [client.id]);
    const recent = await lastUsed();
    await bearer("/api/v1/buckets/artworks/schema", token);
    expect((await lastUsed())!.getTime()).toBe(recent!.getTime());

    // Older than a minute: noted again.
    await server.db.query("UPDATE api_clients SET last_used_at = now() - interval '2 minutes' WHERE id = $1", [client.id]);
    const old = await lastUsed();
    await bearer("/api/v1/buckets/artworks/schema", token);
    expect((await lastUsed())!.getTime()).toBeGreaterThan(old!.getTime() + 60_000);

    const list = (await page(server.url, "/settings/new-client", admin.cookie)).html;
    const card = new RegExp(`data-client="${client.id}"[\\s\\S]*?</li>`).exec(list)?.[0] ?? "";
    expect(textOf(card)).not.toContain("Never");
    expect(card).toMatch(/<time dateTime="[^"]+"/);
  });

  it("are never cookie-authenticated: with a bearer token the session cookie counts for nothing", async () => {
    const { token } = await newClient({ read: ["artworks"] });
    // The admin's cookie cannot lift a bad token, nor widen a good one's scope.
    const badWithCookie = await bearer("/api/v1/buckets/notes/schema", "not-a-token", { headers: { Cookie: admin.cookie } });
    expect(badWithCookie.status).toBe(401);
    const outOfScope = await bearer("/api/v1/buckets/notes/schema", token, { headers: { Cookie: admin.cookie } });
    expect(outOfScope.status).toBe(404);
    // A page with a bearer token is a page for nobody: no session.
    const home = await bearer("/", token, { headers: { Cookie: admin.cookie } });
    expect(home.status).toBe(302);
    expect(home.headers.get("location")).toBe("/login");
    const settings = await bearer("/settings/new-client", token, {
      headers: { Cookie: admin.cookie, ...sameOrigin(server.url) },
      method: "POST",
      body: new URLSearchParams({ intent: "create", name: "Via bearer", read: "artworks" }),
    });
    expect(settings.status).toBe(302);
    expect(settings.headers.get("location")).toMatch(/^\/login/);
    const made = await server.db.query("SELECT 1 FROM api_clients WHERE name = 'Via bearer'");
    expect(made.rows).toEqual([]);
  });

  it("open only the bucket calls: the media calls and the session calls are not for clients", async () => {
    const { token } = await newClient({ read: ["artworks"], write: ["artworks"] });
    const form = new FormData();
    form.append("bucket", "artworks");
    form.append("file", new Blob(["hello"]), "a.txt");
    const upload = await bearer("/api/v1/media/file/upload", token, { method: "POST", body: form });
    expect(upload.status).toBe(403);
    expect(await upload.json()).toEqual({ error: "API clients cannot use this call" });
  });

  it("are not subject to the cross-site checks meant for cookies: no Origin, or a foreign one, still saves", async () => {
    const { token } = await newClient({ write: ["notes"] });
    const plain = await saveWith(token, "notes", { title: "No origin" });
    expect(plain.status).toBe(201);
    const foreign = await saveWith(
      token,
      "notes",
      { title: "Foreign origin" },
      { Origin: "https://exhibit.example", "Sec-Fetch-Site": "cross-site" },
    );
    expect(foreign.status).toBe(201);
    // With the member's cookie and no origin: the cookie is ignored, so it neither refuses nor authorises.
    const withCookie = await saveWith(token, "notes", { title: "With a cookie" }, { Cookie: member.cookie });
    expect(withCookie.status).toBe(201);
    // The same cookie without the bearer token and without an origin is refused as cross-site.
    const cookieOnly = await fetch(`${server.url}/api/v1/buckets/notes/save`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: member.cookie },
      body: JSON.stringify({ content: { title: "Cookie only" } }),
    });
    expect(cookieOnly.status).toBe(403);
  });

  it("leave signed-in users' API calls as they were", async () => {
    const saved = await postJson(server.url, "/api/v1/buckets/notes/save", { content: { title: "By Mia" } }, member.cookie);
    expect(saved.status).toBe(201);
    const { _id } = (await saved.json()) as { _id: string };
    const { rows } = await server.db.query<{ createdBy: string | null }>(
      `SELECT created_by AS "createdBy" FROM versions WHERE version_id = $1`,
      [_id],
    );
    expect(rows).toEqual([{ createdBy: member.user.id }]);
  });
});
