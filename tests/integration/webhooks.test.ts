import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { openPostgres, type Db } from "@server/db/client";
import { claimDeliveries } from "@server/webhooks/store";
import { verifySignature } from "@server/webhooks/signature";
import { createTestBucket, signedInUser } from "@tests/support/fixtures";
import { fieldErrorText, get, sameOrigin } from "@tests/support/http";
import { createTestDatabase, startTestServer, type TestServer } from "@tests/support/server";
import { startReceiver, type Receiver, type ReceivedRequest } from "@tests/support/webhook-receiver";

/*
 * Webhooks (issue 14) over real HTTP: an admin registers a webhook on /settings/webhooks/new, documents are saved
 * and deleted by every path, and a receiver in this process gets signed deliveries (the HMAC checked here);
 * retries after a 500, no redirect followed, a timeout; private targets refused by a server without the allow flag,
 * when saving and at delivery; admin-only pages; the CSRF check; the outbox claimed by several servers at once.
 */

let server: TestServer;
let receiver: Receiver;
let admin: string;
let editor: string;
let artworks: Bucket;
let rooms: Bucket;

const RETRY_BASE_MS = 300;

beforeAll(async () => {
  [server, receiver] = await Promise.all([
    startTestServer({
      env: {
        WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
        WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS),
        WEBHOOK_MAX_ATTEMPTS: "3",
        WEBHOOK_TIMEOUT_MS: "1500",
      },
    }),
    startReceiver(),
  ]);
  artworks = await createTestBucket(server.db, { name: "Artworks" });
  rooms = await createTestBucket(server.db, { name: "Rooms" });
  admin = (await signedInUser(server.url, server.db, { permissions: ["user", "admin"] })).cookie;
  editor = (await signedInUser(server.url, server.db)).cookie;
});
afterAll(async () => {
  await receiver.close();
  await server.stop();
});

let counter = 0;
const uniquePath = (label: string) => `/${label}-${++counter}-${Date.now().toString(36)}`;

/** A form post with repeated names (checkbox groups), as a browser sends it from a page of this server. */
function postFields(
  base: string,
  path: string,
  fields: Array<[string, string]>,
  cookie: string,
  headers: Record<string, string> = sameOrigin(base),
) {
  return fetch(`${base}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, ...headers },
    body: new URLSearchParams(fields),
  });
}

function decode(html: string): string {
  return html
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

interface Created {
  id: string;
  secret: string;
}

/** Registers a webhook through the admin form; answers its id and the secret shown once. */
async function createWebhook(url: string, options: { events?: string[]; buckets?: string[]; secret?: string } = {}): Promise<Created> {
  const fields: Array<[string, string]> = [["url", url]];
  for (const event of options.events ?? ["document.saved", "document.deleted"]) fields.push(["events", event]);
  fields.push(["scope", options.buckets ? "some" : "all"]);
  for (const slug of options.buckets ?? []) fields.push(["buckets", slug]);
  fields.push(["secretMode", options.secret ? "own" : "generate"]);
  if (options.secret) fields.push(["secret", options.secret]);
  const response = await postFields(server.url, "/settings/webhooks/new", fields, admin);
  const html = decode(await response.text());
  expect(response.status, html.slice(0, 500)).toBe(201);
  const id = /href="\/settings\/webhooks\/([0-9a-f-]{36})"/.exec(html)?.[1];
  if (!id) throw new Error("the answer names no webhook");
  if (options.secret) return { id, secret: options.secret };
  const secret = /data-webhook-secret="true"[^>]*value="([^"]+)"/.exec(html)?.[1];
  if (!secret) throw new Error("the answer shows no secret");
  return { id, secret };
}

function api(path: string, init: RequestInit = {}) {
  return fetch(`${server.url}${path}`, {
    ...init,
    redirect: "manual",
    headers: { "Content-Type": "application/json", Cookie: admin, ...sameOrigin(server.url) },
  });
}

async function saveDocument(bucket: Bucket, content: Record<string, unknown>): Promise<{ contentId: string; _id: string }> {
  const response = await api(`/api/v1/buckets/${bucket.slug}/save`, { method: "POST", body: JSON.stringify({ content }) });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return (await response.json()) as { contentId: string; _id: string };
}

async function deliveries(webhookId: string) {
  const { rows } = await server.db.query<{
    id: string;
    event: string;
    contentId: string;
    versionId: string;
    status: string;
    attempts: number;
    lastStatus: number | null;
    lastError: { key: string; params?: Record<string, unknown> } | null;
  }>(
    `SELECT id, event, content_id AS "contentId", version_id AS "versionId", status, attempts, last_status AS "lastStatus", last_error AS "lastError"
     FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY seq`,
    [webhookId],
  );
  return rows;
}

/** Polls the delivery log until `done` holds, or fails at the deadline. */
async function waitForDeliveries(webhookId: string, done: (rows: Awaited<ReturnType<typeof deliveries>>) => boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await deliveries(webhookId);
    if (done(rows)) return rows;
    if (Date.now() > deadline) throw new Error(`the delivery log did not get there: ${JSON.stringify(rows)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function expectSigned(request: ReceivedRequest, secret: string) {
  expect(request.method).toBe("POST");
  expect(request.headers["content-type"]).toBe("application/json");
  const header = request.headers["vitrine-signature"];
  expect(typeof header).toBe("string");
  expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  expect(verifySignature(secret, request.body, header as string)).toBe(true);
  expect(verifySignature("another secret that is long enough", request.body, header as string)).toBe(false);
  expect(request.headers["vitrine-event"]).toBe(request.json?.event);
  expect(request.headers["vitrine-delivery"]).toBe(request.json?.deliveryId);
}

describe("signed deliveries", () => {
  it("sends document.saved for a create and a change and document.deleted for a delete, each signed with the webhook's secret", async () => {
    const path = uniquePath("saves");
    const { id, secret } = await createWebhook(receiver.url(path), { buckets: [artworks.slug] });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    const created = await saveDocument(artworks, { title: "Night Watch" });
    const first = await receiver.waitFor((request) => request.path === path && request.json?.versionId === created._id);
    expectSigned(first, secret);
    expect(first.json).toEqual({
      event: "document.saved",
      bucket: artworks.slug,
      contentId: created.contentId,
      versionId: created._id,
      occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      deliveryId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });

    const changed = await saveDocument(artworks, { title: "The Night Watch", contentId: created.contentId, _id: created._id });
    const second = await receiver.waitFor((request) => request.path === path && request.json?.versionId === changed._id);
    expectSigned(second, secret);
    expect(second.json).toMatchObject({ event: "document.saved", contentId: created.contentId });

    const deleted = await api(`/api/v1/buckets/${artworks.slug}/content/${created.contentId}/${changed._id}`, { method: "DELETE" });
    expect(deleted.status).toBeLessThan(300);
    const third = await receiver.waitFor((request) => request.path === path && request.json?.event === "document.deleted");
    expectSigned(third, secret);
    expect(third.json).toMatchObject({
      event: "document.deleted",
      bucket: artworks.slug,
      contentId: created.contentId,
      versionId: changed._id,
    });
    expect(third.headers["vitrine-event"]).toBe("document.deleted");

    const log = await waitForDeliveries(id, (rows) => rows.length === 3 && rows.every((row) => row.status === "delivered"));
    expect(log.map((row) => [row.event, row.attempts, row.lastStatus])).toEqual([
      ["document.saved", 1, 204],
      ["document.saved", 1, 204],
      ["document.deleted", 1, 204],
    ]);
    expect(new Set(log.map((row) => row.id)).size).toBe(3);
  });

  it("sends only the chosen events for the chosen buckets, and signs with the admin's own secret", async () => {
    const path = uniquePath("filtered");
    const secret = "my-own-secret-that-is-long-enough-1234";
    const { id } = await createWebhook(receiver.url(path), { events: ["document.deleted"], buckets: [rooms.slug], secret });
    const inOther = await saveDocument(artworks, { title: "Elsewhere" });
    const room = await saveDocument(rooms, { title: "East wing" });
    await api(`/api/v1/buckets/${artworks.slug}/content/${inOther.contentId}/${inOther._id}`, { method: "DELETE" });
    await api(`/api/v1/buckets/${rooms.slug}/content/${room.contentId}/${room._id}`, { method: "DELETE" });
    const request = await receiver.waitFor((entry) => entry.path === path);
    expectSigned(request, secret);
    expect(request.json).toMatchObject({ event: "document.deleted", bucket: rooms.slug, contentId: room.contentId });
    // The save in the same bucket and both changes in the other bucket recorded nothing.
    expect((await deliveries(id)).map((row) => row.contentId)).toEqual([room.contentId]);
  });

  it("records a delivery for the edit form, a restore from the history and a delete on the overview", async () => {
    const path = uniquePath("paths");
    const { id, secret } = await createWebhook(receiver.url(path), { buckets: [artworks.slug] });
    // The edit page's form post.
    const posted = await postFields(server.url, `/b/${artworks.slug}/new`, [["title", "From the form"]], admin);
    expect(posted.status).toBe(302);
    const formSave = await receiver.waitFor((request) => request.path === path);
    expectSigned(formSave, secret);
    const contentId = formSave.json?.contentId as string;
    const firstVersion = formSave.json?.versionId as string;
    const second = await saveDocument(artworks, { title: "Changed", contentId, _id: firstVersion });
    await receiver.waitFor((request) => request.path === path && request.json?.versionId === second._id);
    // Restore the first version from the history: a new version, a new delivery.
    const restored = await postFields(
      server.url,
      `/b/${artworks.slug}/${contentId}/history`,
      [
        ["versionId", firstVersion],
        ["base", second._id],
      ],
      admin,
    );
    expect(restored.status).toBe(302);
    const restore = await receiver.waitFor(
      (request) =>
        request.path === path &&
        request.json?.event === "document.saved" &&
        ![firstVersion, second._id].includes(request.json.versionId as string),
    );
    expectSigned(restore, secret);
    // Delete on the overview.
    const removed = await postFields(
      server.url,
      `/b/${artworks.slug}?index`,
      [
        ["intent", "delete"],
        ["contentId", contentId],
        ["versionId", restore.json?.versionId as string],
      ],
      admin,
    );
    expect(removed.status).toBe(302);
    await receiver.waitFor((request) => request.path === path && request.json?.event === "document.deleted");
    expect((await waitForDeliveries(id, (rows) => rows.length === 4)).map((row) => row.event)).toEqual([
      "document.saved",
      "document.saved",
      "document.saved",
      "document.deleted",
    ]);
  });

  it("records nothing for a change that did not happen: a save or a delete refused as a conflict", async () => {
    const path = uniquePath("conflict");
    const { id } = await createWebhook(receiver.url(path), { buckets: [artworks.slug] });
    const created = await saveDocument(artworks, { title: "Base" });
    const newer = await saveDocument(artworks, { title: "Newer", contentId: created.contentId, _id: created._id });
    const stale = await api(`/api/v1/buckets/${artworks.slug}/save`, {
      method: "POST",
      body: JSON.stringify({ content: { title: "Stale", contentId: created.contentId, _id: created._id } }),
    });
    expect(stale.status).toBe(409);
    const staleDelete = await api(`/api/v1/buckets/${artworks.slug}/content/${created.contentId}/${created._id}`, { method: "DELETE" });
    expect(staleDelete.status).toBe(409);
    const rows = await waitForDeliveries(id, (found) => found.length === 2 && found.every((row) => row.status === "delivered"));
    expect(rows.map((row) => row.versionId)).toEqual([created._id, newer._id]);
  });
});

describe("retries", () => {
  it("sends again after a 500 with the backoff, then records the success; the admin page shows the log", async () => {
    const path = uniquePath("flaky");
    let calls = 0;
    const previous = receiver.answer;
    receiver.answer = (request) => (request.path === path && ++calls === 1 ? { status: 500, body: "x".repeat(5000) } : previous(request));
    const { id, secret } = await createWebhook(receiver.url(path), { buckets: [artworks.slug] });
    const created = await saveDocument(artworks, { title: "Flaky" });
    await receiver.waitFor((request) => request.path === path);
    const retried = await receiver.waitFor(
      (request) => request.path === path && receiver.received.filter((entry) => entry.path === path).indexOf(request) === 1,
    );
    const [failedAttempt] = receiver.received.filter((entry) => entry.path === path);
    expect(retried.at - failedAttempt!.at).toBeGreaterThanOrEqual(RETRY_BASE_MS - 50);
    expectSigned(retried, secret);
    // The same delivery, sent again: same id and body.
    expect(retried.json).toEqual(failedAttempt!.json);
    expect(retried.json?.contentId).toBe(created.contentId);
    const [row] = await waitForDeliveries(id, (rows) => rows[0]?.status === "delivered");
    expect(row).toMatchObject({ status: "delivered", attempts: 2, lastStatus: 204, lastError: null });

    const page = decode(await (await get(server.url, `/settings/webhooks/${id}`, admin)).text());
    expect(page).toContain("Delivery log");
    expect(page).toMatch(/data-status="delivered"/);
    expect(page).toContain(">Delivered<");
    expect(page).toContain("Send again");
  });

  it("gives up after the last attempt with the receiver's status, keeping only an excerpt of its answer", async () => {
    const path = uniquePath("down");
    const previous = receiver.answer;
    receiver.answer = (request) => (request.path === path ? { status: 503, body: `${"busy ".repeat(400)}END` } : previous(request));
    const { id } = await createWebhook(receiver.url(path), { buckets: [artworks.slug] });
    await saveDocument(artworks, { title: "Never arrives" });
    const [row] = await waitForDeliveries(id, (rows) => rows[0]?.status === "failed");
    expect(row).toMatchObject({
      attempts: 3,
      lastStatus: 503,
      lastError: { key: "webhooks.deliveryErrors.status", params: { status: 503 } },
    });
    expect(receiver.received.filter((entry) => entry.path === path)).toHaveLength(3);
    const { rows } = await server.db.query<{ response: string }>(
      "SELECT last_response AS response FROM webhook_deliveries WHERE webhook_id = $1",
      [id],
    );
    expect(rows[0]!.response.length).toBeLessThanOrEqual(512);
    expect(rows[0]!.response).not.toContain("END");
    const page = decode(await (await get(server.url, `/settings/webhooks/${id}`, admin)).text());
    expect(page).toContain("The receiver answered 503");
    expect(page).toContain(">Failed<");
  });

  it("does not follow a redirect, and times out a receiver that does not answer", async () => {
    const redirectPath = uniquePath("moved");
    const hangPath = uniquePath("hang");
    const target = uniquePath("target");
    const previous = receiver.answer;
    receiver.answer = (request) => {
      if (request.path === redirectPath) return { status: 307, headers: { Location: receiver.url(target) } };
      if (request.path === hangPath) return "hang";
      return previous(request);
    };
    const moved = await createWebhook(receiver.url(redirectPath), { buckets: [rooms.slug], events: ["document.saved"] });
    const hung = await createWebhook(receiver.url(hangPath), { buckets: [rooms.slug], events: ["document.saved"] });
    await saveDocument(rooms, { title: "Redirected" });
    const [redirected] = await waitForDeliveries(moved.id, (rows) => (rows[0]?.attempts ?? 0) >= 1 && rows[0]?.status !== "delivering");
    expect(redirected).toMatchObject({ lastStatus: 307, lastError: { key: "webhooks.deliveryErrors.redirect", params: { status: 307 } } });
    const [timedOut] = await waitForDeliveries(hung.id, (rows) => (rows[0]?.attempts ?? 0) >= 1 && rows[0]?.status !== "delivering");
    expect(timedOut).toMatchObject({ lastStatus: null, lastError: { key: "webhooks.deliveryErrors.timeout", params: { seconds: 1.5 } } });
    expect(receiver.received.some((entry) => entry.path === target)).toBe(false);
  });

  it("'Send again' makes a new delivery of the same change", async () => {
    const path = uniquePath("again");
    const { id, secret } = await createWebhook(receiver.url(path), { buckets: [artworks.slug] });
    const created = await saveDocument(artworks, { title: "Twice" });
    const first = await receiver.waitFor((request) => request.path === path);
    const [row] = await waitForDeliveries(id, (rows) => rows[0]?.status === "delivered");
    const response = await postFields(
      server.url,
      `/settings/webhooks/${id}`,
      [
        ["intent", "redeliver"],
        ["deliveryId", row!.id],
      ],
      admin,
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/settings/webhooks/${id}?done=resent`);
    const again = await receiver.waitFor((request) => request.path === path && request.json?.deliveryId !== first.json?.deliveryId);
    expectSigned(again, secret);
    expect(again.json).toMatchObject({
      event: "document.saved",
      contentId: created.contentId,
      versionId: created._id,
      occurredAt: first.json?.occurredAt,
    });
    // Another webhook's delivery cannot be sent again from here.
    const other = await createWebhook(receiver.url(uniquePath("other")), { buckets: [rooms.slug] });
    expect(
      (
        await postFields(
          server.url,
          `/settings/webhooks/${other.id}`,
          [
            ["intent", "redeliver"],
            ["deliveryId", row!.id],
          ],
          admin,
        )
      ).status,
    ).toBe(404);
  });
});

describe("the admin pages", () => {
  it("lists, edits (replacing the secret, shown once) and deletes a webhook", async () => {
    const path = uniquePath("edit");
    const { id, secret } = await createWebhook(receiver.url(path));
    const list = decode(await (await get(server.url, "/settings/webhooks", admin)).text());
    expect(list).toContain(receiver.url(path));
    expect(list).toContain("All buckets");
    expect(list).not.toContain(secret);
    const page = decode(await (await get(server.url, `/settings/webhooks/${id}`, admin)).text());
    expect(page).not.toContain(secret);

    const saved = await postFields(
      server.url,
      `/settings/webhooks/${id}`,
      [
        ["intent", "save"],
        ["url", receiver.url(path)],
        ["events", "document.saved"],
        ["scope", "some"],
        ["buckets", rooms.slug],
        ["secretMode", "generate"],
      ],
      admin,
    );
    expect(saved.status).toBe(200);
    const newSecret = /data-webhook-secret="true"[^>]*value="([^"]+)"/.exec(decode(await saved.text()))?.[1];
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    const room = await saveDocument(rooms, { title: "Signed anew" });
    const request = await receiver.waitFor((entry) => entry.path === path && entry.json?.contentId === room.contentId);
    expectSigned(request, newSecret!);

    const kept = await postFields(
      server.url,
      `/settings/webhooks/${id}`,
      [
        ["intent", "save"],
        ["url", receiver.url(path)],
        ["events", "document.saved"],
        ["scope", "all"],
        ["secretMode", "keep"],
      ],
      admin,
    );
    expect(kept.status).toBe(302);
    expect(kept.headers.get("location")).toBe(`/settings/webhooks/${id}?done=saved`);

    const deleted = await postFields(server.url, `/settings/webhooks/${id}`, [["intent", "delete"]], admin);
    expect(deleted.status).toBe(302);
    expect((await get(server.url, `/settings/webhooks/${id}`, admin)).status).toBe(404);
    expect(await deliveries(id)).toEqual([]);
    const { rows } = await server.db.query<{ action: string }>(
      `SELECT action FROM admin_activity WHERE area = 'webhook' AND details->>'id' = $1 ORDER BY created_at`,
      [id],
    );
    expect(rows.map((row) => row.action)).toEqual(["created", "updated", "updated", "deleted"]);
  });

  it("refuses an invalid form with messages under its fields", async () => {
    const response = await postFields(
      server.url,
      "/settings/webhooks/new",
      [
        ["url", "ftp://example.org/x"],
        ["scope", "some"],
        ["secretMode", "own"],
        ["secret", "short"],
      ],
      admin,
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(fieldErrorText(html, "url")).toBe("Enter a complete http:// or https:// URL");
    expect(fieldErrorText(html, "events")).toBe("Choose at least one event");
    expect(fieldErrorText(html, "buckets")).toBe("Choose at least one bucket, or all buckets");
    expect(fieldErrorText(html, "secret")).toBe("Use a secret of at least 24 characters");
    const credentials = await postFields(
      server.url,
      "/settings/webhooks/new",
      [
        ["url", "https://user:pw@example.org/x"],
        ["events", "document.saved"],
        ["scope", "all"],
        ["secretMode", "generate"],
      ],
      admin,
    );
    expect(fieldErrorText(await credentials.text(), "url")).toBe(
      "Leave the user name and password out of the URL: the signature proves who sends",
    );
    const unknown = await postFields(
      server.url,
      "/settings/webhooks/new",
      [
        ["url", receiver.url("/x")],
        ["events", "document.saved"],
        ["scope", "some"],
        ["buckets", "no-such-bucket"],
        ["secretMode", "generate"],
      ],
      admin,
    );
    expect(unknown.status).toBe(400);
    expect(fieldErrorText(decode(await unknown.text()), "buckets")).toBe("There is no bucket 'no-such-bucket'");
  });

  it("is for admins only: an editor is sent home and changes nothing, a visitor is sent to sign in", async () => {
    const { id } = await createWebhook(receiver.url(uniquePath("guarded")));
    for (const path of ["/settings/webhooks", "/settings/webhooks/new", `/settings/webhooks/${id}`]) {
      const refused = await get(server.url, path, editor);
      expect(refused.status, path).toBe(302);
      expect(refused.headers.get("location"), path).toBe("/?notice=admin-only");
      const anonymous = await get(server.url, path);
      expect(anonymous.headers.get("location"), path).toBe(`/login?from_url=${encodeURIComponent(path)}`);
    }
    const before = (await server.db.query<{ n: number }>("SELECT count(*)::int AS n FROM webhooks")).rows[0]!.n;
    const create = await postFields(
      server.url,
      "/settings/webhooks/new",
      [
        ["url", receiver.url("/editor")],
        ["events", "document.saved"],
        ["scope", "all"],
        ["secretMode", "generate"],
      ],
      editor,
    );
    expect(create.headers.get("location")).toBe("/?notice=admin-only");
    const remove = await postFields(server.url, `/settings/webhooks/${id}`, [["intent", "delete"]], editor);
    expect(remove.headers.get("location")).toBe("/?notice=admin-only");
    expect((await server.db.query<{ n: number }>("SELECT count(*)::int AS n FROM webhooks")).rows[0]!.n).toBe(before);
  });

  it("refuses a cross-site form post (CSRF) before any work", async () => {
    const before = (await server.db.query<{ n: number }>("SELECT count(*)::int AS n FROM webhooks")).rows[0]!.n;
    const fields: Array<[string, string]> = [
      ["url", receiver.url("/csrf")],
      ["events", "document.saved"],
      ["scope", "all"],
      ["secretMode", "generate"],
    ];
    const foreign = await postFields(server.url, "/settings/webhooks/new", fields, admin, { Origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    const crossSite = await postFields(server.url, "/settings/webhooks/new", fields, admin, { "Sec-Fetch-Site": "cross-site" });
    expect(crossSite.status).toBe(403);
    const bare = await postFields(server.url, "/settings/webhooks/new", fields, admin, {});
    expect(bare.status).toBe(403);
    expect((await server.db.query<{ n: number }>("SELECT count(*)::int AS n FROM webhooks")).rows[0]!.n).toBe(before);
  });

  it("is linked from the settings navigation and overview", async () => {
    const html = await (await get(server.url, "/settings", admin)).text();
    expect(html.match(/href="\/settings\/webhooks"/g)?.length).toBe(2);
  });
});

describe("private targets (a server without WEBHOOK_ALLOW_PRIVATE_TARGETS)", () => {
  let strict: TestServer;
  let strictAdmin: string;
  beforeAll(async () => {
    strict = await startTestServer({ env: { WEBHOOK_RETRY_BASE_MS: "100", WEBHOOK_MAX_ATTEMPTS: "1" } });
    strictAdmin = (await signedInUser(strict.url, strict.db, { permissions: ["user", "admin"] })).cookie;
  });
  afterAll(() => strict.stop());

  const create = (url: string) =>
    postFields(
      strict.url,
      "/settings/webhooks/new",
      [
        ["url", url],
        ["events", "document.saved"],
        ["scope", "all"],
        ["secretMode", "generate"],
      ],
      strictAdmin,
    );

  it("refuses private, loopback and link-local addresses when the webhook is saved, in the admin's language", async () => {
    const cases: Array<[string, string]> = [
      [
        receiver.url("/loopback"),
        "This address is this server itself (127.0.0.1): webhooks are not sent to loopback addresses. An administrator of the server can allow it with WEBHOOK_ALLOW_PRIVATE_TARGETS.",
      ],
      ["http://localhost:9/x", "This address is this server itself"],
      ["http://10.1.2.3/x", "This address is private (10.1.2.3): webhooks are not sent into private networks."],
      ["http://192.168.0.10/x", "This address is private (192.168.0.10)"],
      ["http://[fd00::1]/x", "This address is private (fd00::1)"],
      ["http://169.254.169.254/latest/meta-data", "This address is link-local (169.254.169.254)"],
      ["http://[::ffff:127.0.0.1]/x", "This address is this server itself (::ffff:7f00:1)"],
      ["http://0.0.0.0/x", "This address is not a public internet address (0.0.0.0)"],
    ];
    for (const [url, message] of cases) {
      const response = await create(url);
      expect(response.status, url).toBe(400);
      expect(fieldErrorText(decode(await response.text()), "url"), url).toContain(message);
    }
    const dutch = await postFields(
      strict.url,
      "/settings/webhooks/new",
      [
        ["url", "http://10.0.0.1/x"],
        ["events", "document.saved"],
        ["scope", "all"],
        ["secretMode", "generate"],
      ],
      strictAdmin,
      { ...sameOrigin(strict.url), "Accept-Language": "nl-NL" },
    );
    expect(fieldErrorText(decode(await dutch.text()), "url")).toContain("Dit adres is privé (10.0.0.1)");
    expect((await strict.db.query<{ n: number }>("SELECT count(*)::int AS n FROM webhooks")).rows[0]!.n).toBe(0);
  });

  it("checks the address again at delivery time: a webhook that points at this machine gets nothing sent", async () => {
    const path = uniquePath("rebound");
    const bucket = await createTestBucket(strict.db, { name: "Strict" });
    // As if the name resolved to a public address when it was saved and to loopback now (DNS rebinding).
    const { rows } = await strict.db.query<{ id: string }>(
      `INSERT INTO webhooks (url, secret, events) VALUES ($1, 'whsec_x', '{document.saved}'), ($2, 'whsec_x', '{document.saved}') RETURNING id`,
      [receiver.url(path), `http://localhost:${new URL(receiver.url("/")).port}${path}`],
    );
    const response = await fetch(`${strict.url}/api/v1/buckets/${bucket.slug}/save`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: strictAdmin, ...sameOrigin(strict.url) },
      body: JSON.stringify({ content: { title: "Not for localhost" } }),
    });
    expect(response.status).toBe(201);
    const [literal, named] = rows.map((row) => row.id);
    const deadline = Date.now() + 15_000;
    let states: Array<{ status: string; lastError: { key: string; params?: Record<string, unknown> } | null }> = [];
    while (Date.now() < deadline) {
      const found = await strict.db.query<{ status: string; lastError: { key: string; params?: Record<string, unknown> } | null }>(
        `SELECT status, last_error AS "lastError" FROM webhook_deliveries WHERE webhook_id = ANY ($1::uuid[]) ORDER BY webhook_id = $2 DESC`,
        [[literal, named], literal],
      );
      states = found.rows;
      if (states.length === 2 && states.every((state) => state.status === "failed")) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(states).toEqual([
      { status: "failed", lastError: { key: "webhooks.errors.loopbackAddress", params: { address: "127.0.0.1" } } },
      {
        status: "failed",
        lastError: { key: "webhooks.errors.loopbackAddress", params: { address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/) } },
      },
    ]);
    expect(receiver.received.some((entry) => entry.path === path)).toBe(false);
  });
});

describe("a stopping server", () => {
  it("interrupts its attempts and gives their deliveries back, due at once and the attempt not counted", async () => {
    const own = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" } });
    const path = uniquePath("stopping");
    const previous = receiver.answer;
    receiver.answer = (request) => (request.path === path ? "hang" : previous(request));
    try {
      const bucket = await createTestBucket(own.db, { name: "Stopping" });
      await own.db.query(`INSERT INTO webhooks (url, secret, events) VALUES ($1, 'whsec_x', '{document.saved}')`, [receiver.url(path)]);
      const { createContent } = await import("@server/content/store");
      await createContent(own.db, bucket.id, { title: "In flight" }, null);
      await receiver.waitFor((request) => request.path === path);
      await own.close();
      const { rows } = await own.database.db.query<{ status: string; attempts: number; due: boolean }>(
        `SELECT status, attempts, next_attempt_at <= now() AS due FROM webhook_deliveries`,
      );
      expect(rows).toEqual([{ status: "pending", attempts: 0, due: true }]);
    } finally {
      await own.database.drop();
    }
  });
});

describe("the outbox with several servers", () => {
  it("never hands one delivery to two claimers at once (FOR UPDATE SKIP LOCKED)", async () => {
    const database = await createTestDatabase();
    const second: Db | null = database.databaseUrl ? openPostgres(database.databaseUrl) : null;
    try {
      const db = database.db;
      const bucket = await createTestBucket(db, { name: "Outbox" });
      await db.query(
        `INSERT INTO webhooks (url, secret, events) SELECT 'http://192.0.2.1/' || n, 'whsec_x', '{document.saved}' FROM generate_series(1, 40) n`,
      );
      const { createContent } = await import("@server/content/store");
      await createContent(db, bucket.id, { title: "Once" }, null);
      const claimers = [db, second ?? db, db, second ?? db];
      const claimed = (await Promise.all(claimers.map((claimer) => claimDeliveries(claimer, 15, 60)))).flat().map((row) => row.id);
      expect(claimed).toHaveLength(40);
      expect(new Set(claimed).size).toBe(40);
      expect(await claimDeliveries(db, 10, 60)).toEqual([]);
    } finally {
      await second?.close();
      await database.drop();
    }
  });
});

describe("a server with WEBHOOK_DISPATCHER=false (docs/operations.md)", () => {
  it("sends no deliveries once its background work has begun; a server with the default does", async () => {
    const quiet = await startTestServer({ env: { WEBHOOK_DISPATCHER: "false" } });
    try {
      await quiet.backgroundWorkStarted;
      expect(quiet.webhooks.isRunning).toBe(false);
    } finally {
      await quiet.stop();
    }
    await server.backgroundWorkStarted;
    expect(server.webhooks.isRunning).toBe(true);
  });
});
