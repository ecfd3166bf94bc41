import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent, saveVersion } from "@server/content/store";
import { publishDocument, unpublishDocument } from "@server/content/publishing";
import { publicationOf } from "@server/content/publication-state";
import { createWebhook } from "@server/webhooks/store";
import { createTestBucket, page, signedInUser } from "@tests/support/fixtures";
import { deliver, deliveryClient, type Doc } from "@tests/support/delivery";
import { postForm } from "@tests/support/http";
import { readBundle } from "@tests/support/bundle";
import { TEST_PUBLISHER } from "@tests/support/publishing";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * Publishing (docs/publishing.md, issue 31): a save never changes what exhibits get; publishing does, in one
 * transaction with its webhooks and activity; only users who may publish can.
 */

let server: TestServer;
let works: Bucket;
let makers: Bucket;
let places: Bucket;
let token: string;
const unique = Date.now().toString(36);

const read = (path: string, headers: Record<string, string> = {}) => deliver(server.url, `/api/v1/delivery${path}`, token, headers);
const documentPath = (contentId: string) => `/buckets/${works.slug}/documents/${contentId}`;

async function newDocument(title: string, bucket = works, more: Record<string, unknown> = {}) {
  return createContent(server.db, bucket.id, { ...(bucket === works ? { title } : { name: title }), ...more }, null);
}

async function saveOver(bucket: Bucket, version: { contentId: string; versionId: string }, data: Record<string, unknown>) {
  return saveVersion(server.db, {
    bucketId: bucket.id,
    contentId: version.contentId,
    baseVersionId: version.versionId,
    data,
    userId: null,
  });
}

beforeAll(async () => {
  server = await startTestServer();
  places = await createTestBucket(server.db, {
    slug: `places-${unique}`,
    collectionName: `places-${unique}`,
    jsonSchema: { type: "object", properties: { name: { type: "string" } } },
  });
  makers = await createTestBucket(server.db, {
    slug: `makers-${unique}`,
    collectionName: `makers-${unique}`,
    jsonSchema: { type: "object", properties: { name: { type: "string" }, place: { type: "string", _ref: places.collectionName } } },
  });
  works = await createTestBucket(server.db, {
    slug: `works-${unique}`,
    collectionName: `works-${unique}`,
    jsonSchema: { type: "object", properties: { title: { type: "string" }, maker: { type: "string", _ref: makers.collectionName } } },
  });
  ({ token } = await deliveryClient(server.db, { read: [works.slug, makers.slug] }));
});
afterAll(() => server.stop());

describe("what exhibits get", () => {
  it("is nothing for a draft: 404 for the document, left out of the list", async () => {
    const draft = await newDocument("Only a draft");
    expect((await read(documentPath(draft.contentId))).status).toBe(404);
    const list = (await (await read(`/buckets/${works.slug}/documents?limit=100`)).json()) as { items: Doc[] };
    expect(list.items.map((doc) => doc.contentId)).not.toContain(draft.contentId);
    expect((await publicationOf(server.db, works.id, draft.contentId))?.state).toBe("draft");
  });

  it("stays the published version after a save: the same answer and ETag, until the newest is published", async () => {
    const first = await newDocument("Opening text");
    await publishDocument(server.db, TEST_PUBLISHER, { bucket: works, contentId: first.contentId });
    const before = await read(documentPath(first.contentId));
    const etag = before.headers.get("etag")!;
    const body = await before.text();
    const listEtag = (await read(`/buckets/${works.slug}/documents`)).headers.get("etag")!;

    const second = await saveOver(works, first, { title: "Half-finished text" });
    expect((await publicationOf(server.db, works.id, first.contentId))?.state).toBe("changed");
    const after = await read(documentPath(first.contentId));
    expect(after.headers.get("etag")).toBe(etag);
    expect(await after.text()).toBe(body);
    expect((await read(documentPath(first.contentId), { "If-None-Match": etag })).status).toBe(304);
    expect((await read(`/buckets/${works.slug}/documents`, { "If-None-Match": listEtag })).status).toBe(304);

    await publishDocument(server.db, TEST_PUBLISHER, { bucket: works, contentId: first.contentId });
    const published = await read(documentPath(first.contentId), { "If-None-Match": etag });
    expect(published.status).toBe(200);
    expect(((await published.json()) as Doc).data.title).toBe("Half-finished text");
    expect(await publicationOf(server.db, works.id, first.contentId)).toMatchObject({
      state: "published",
      publishedVersionId: second.versionId,
    });
  });

  it("can be an older version, and nothing after an unpublish (the document's versions stay)", async () => {
    const first = await newDocument("Version one");
    const second = await saveOver(works, first, { title: "Version two" });
    await publishDocument(server.db, TEST_PUBLISHER, { bucket: works, contentId: first.contentId, versionId: first.versionId });
    expect(((await (await read(documentPath(first.contentId))).json()) as Doc).data.title).toBe("Version one");
    expect((await publicationOf(server.db, works.id, first.contentId))?.state).toBe("changed");

    await unpublishDocument(server.db, TEST_PUBLISHER, { bucket: works, contentId: first.contentId });
    expect((await read(documentPath(first.contentId))).status).toBe(404);
    expect((await publicationOf(server.db, works.id, first.contentId))?.state).toBe("unpublished");
    const { rows } = await server.db.query<{ versionId: string | null; previous: string | null }>(
      `SELECT version_id AS "versionId", previous_version_id AS previous FROM publications WHERE content_id = $1 ORDER BY seq`,
      [first.contentId],
    );
    expect(rows).toEqual([
      { versionId: first.versionId, previous: null },
      { versionId: null, previous: first.versionId },
    ]);
    await publishDocument(server.db, TEST_PUBLISHER, { bucket: works, contentId: first.contentId });
    expect(((await (await read(documentPath(first.contentId))).json()) as Doc).data.title).toBe("Version two");
    expect(second.contentId).toBe(first.contentId);
  });

  it("is found by a search (q=) in the published version's text, not the newest's, in time and property order", async () => {
    const word = `kelp${unique}`;
    const first = await newDocument(`Forest of ${word}alpha`);
    const found = async (term: string, sort = "") => {
      const response = await read(`/buckets/${works.slug}/documents?q=${encodeURIComponent(term)}${sort}`);
      expect(response.status).toBe(200);
      return ((await response.json()) as { items: Doc[] }).items.map((doc) => doc.contentId);
    };
    for (const sort of ["", "&sort=title"]) expect(await found(`${word}alpha`, sort)).toEqual([]);
    await publishDocument(server.db, TEST_PUBLISHER, { bucket: works, contentId: first.contentId });
    const second = await saveOver(works, first, { title: `Forest of ${word}beta` });
    for (const sort of ["", "&sort=title"]) {
      expect(await found(`${word}alpha`, sort)).toEqual([first.contentId]);
      expect(await found(`${word}beta`, sort)).toEqual([]);
    }
    await publishDocument(server.db, TEST_PUBLISHER, { bucket: works, contentId: first.contentId, versionId: second.versionId });
    expect(await found(`${word}beta`)).toEqual([first.contentId]);
    expect(await found(`${word}ALPHA`)).toEqual([]);
    await publishDocument(server.db, TEST_PUBLISHER, { bucket: works, contentId: first.contentId, versionId: first.versionId });
    expect(await found(`${word}Alpha`)).toEqual([first.contentId]);
    await unpublishDocument(server.db, TEST_PUBLISHER, { bucket: works, contentId: first.contentId });
    expect(await found(word)).toEqual([]);
  });

  it("leaves a reference to an unpublished document out, as a dangling one, at populate=1, and names it in unresolved", async () => {
    const maker = await newDocument("Unpublished maker", makers);
    const work = await createContent(server.db, works.id, { title: "Work with a draft maker", maker: maker.contentId }, null);
    await publishDocument(server.db, TEST_PUBLISHER, { bucket: works, contentId: work.contentId });
    const answer = (await (await read(`${documentPath(work.contentId)}?populate=1`)).json()) as Doc & { unresolved?: string[] };
    expect(answer.data.maker).toBe(maker.contentId);
    expect(answer.unresolved).toEqual(["maker"]);
    // Without populate every reference is an id by request: nothing is unresolved.
    const ids = (await (await read(documentPath(work.contentId))).json()) as Doc & { unresolved?: string[] };
    expect(ids.unresolved).toBeUndefined();
    await publishDocument(server.db, TEST_PUBLISHER, { bucket: makers, contentId: maker.contentId });
    const populated = (await (await read(`${documentPath(work.contentId)}?populate=1`)).json()) as Doc & { unresolved?: string[] };
    expect((populated.data.maker as Doc).data.name).toBe("Unpublished maker");
    expect(populated.unresolved).toBeUndefined();
  });

  it("in a bundle is the published versions only", async () => {
    const live = await newDocument("Live in the bundle");
    await publishDocument(server.db, TEST_PUBLISHER, { bucket: works, contentId: live.contentId });
    await saveOver(works, live, { title: "Draft after publishing" });
    const draft = await newDocument("Never published, not in the bundle");
    const response = await deliver(server.url, `/api/v1/delivery/bundle?buckets=${works.slug}`, token);
    expect(response.status).toBe(200);
    const bundle = await readBundle(response.body!);
    const listed = bundle.manifest.buckets.flatMap((bucket) => bucket.documents.map((doc) => doc.contentId));
    expect(listed).toContain(live.contentId);
    expect(listed).not.toContain(draft.contentId);
    const files = bundle.entries.map((entry) => entry.path).filter((path) => path.includes(live.contentId));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(JSON.stringify(bundle.json(file))).toContain("Live in the bundle");
  });
});

describe("publishing records", () => {
  it("webhook deliveries of document.published and document.unpublished, and the activity log's rows", async () => {
    const admin = await signedInUser(server.url, server.db, { permissions: ["user", "admin"] });
    const hook = await createWebhook(server.db, admin.user, {
      url: "https://example.test/hook",
      secret: "a-secret-of-the-webhook",
      events: ["document.published", "document.unpublished"],
      bucketSlugs: [works.slug],
    });
    const doc = await newDocument("Announced");
    await publishDocument(server.db, { id: admin.user.id, name: admin.user.name }, { bucket: works, contentId: doc.contentId });
    await publishDocument(server.db, { id: admin.user.id, name: admin.user.name }, { bucket: works, contentId: doc.contentId }); // no change
    await unpublishDocument(server.db, { id: admin.user.id, name: admin.user.name }, { bucket: works, contentId: doc.contentId });
    const { rows } = await server.db.query<{ event: string; versionId: string }>(
      `SELECT event, version_id AS "versionId" FROM webhook_deliveries WHERE webhook_id = $1 AND content_id = $2 ORDER BY seq`,
      [hook.id, doc.contentId],
    );
    expect(rows).toEqual([
      { event: "document.published", versionId: doc.versionId },
      { event: "document.unpublished", versionId: doc.versionId },
    ]);
    const activity = await server.db.query<{ action: string; subject: string; actor: string }>(
      `SELECT action, subject, actor_name AS actor FROM admin_activity WHERE details->>'contentId' = $1 ORDER BY created_at`,
      [doc.contentId],
    );
    expect(activity.rows).toEqual([
      { action: "published", subject: "Announced", actor: admin.user.name },
      { action: "unpublished", subject: "Announced", actor: admin.user.name },
    ]);
  });
});

describe("who may publish", () => {
  it("without the permission: 403 for the confirmation page and the action, and nothing changes", async () => {
    const editor = await signedInUser(server.url, server.db, { permissions: ["user"] });
    const doc = await newDocument("Not mine to publish");
    const path = `/b/${works.slug}/${doc.contentId}/publish`;
    expect((await page(server.url, path, editor.cookie)).status).toBe(403);
    const posted = await postForm(server.url, path, { intent: "publish", versionId: doc.versionId }, editor.cookie);
    expect(posted.status).toBe(403);
    expect((await postForm(server.url, path, { intent: "unpublish" }, editor.cookie)).status).toBe(403);
    expect((await publicationOf(server.db, works.id, doc.contentId))?.state).toBe("draft");
    const edit = await page(server.url, `/b/${works.slug}/${doc.contentId}/latest`, editor.cookie);
    expect(edit.status).toBe(200);
    expect(edit.html).not.toContain(`action="${path}"`);
  });

  it("with the permission (or as an admin): the confirmation page, then the version seen is published", async () => {
    for (const permissions of [
      ["user", "publish"],
      ["user", "admin"],
    ] as const) {
      const curator = await signedInUser(server.url, server.db, { permissions: [...permissions] });
      const doc = await newDocument(`Ready for the opening ${permissions[1]}`);
      const path = `/b/${works.slug}/${doc.contentId}/publish`;
      const confirm = await page(server.url, path, curator.cookie);
      expect(confirm.status).toBe(200);
      expect(confirm.html).toContain(doc.versionId);
      // Someone saves after the curator looked: the version the curator saw is the one published.
      await saveOver(works, doc, { title: "Saved by someone else meanwhile" });
      const posted = await postForm(server.url, path, { intent: "publish", versionId: doc.versionId }, curator.cookie);
      expect(posted.status).toBe(302);
      expect(posted.headers.get("location")).toBe(`/b/${works.slug}/${doc.contentId}/latest?published=published`);
      expect(await publicationOf(server.db, works.id, doc.contentId)).toMatchObject({
        state: "changed",
        publishedVersionId: doc.versionId,
      });
      const unposted = await postForm(server.url, path, { intent: "unpublish" }, curator.cookie);
      expect(unposted.headers.get("location")).toBe(`/b/${works.slug}/${doc.contentId}/latest?published=unpublished`);
      expect((await publicationOf(server.db, works.id, doc.contentId))?.state).toBe("unpublished");
    }
  });

  it("refuses an unknown document or a version of another document with 404, and a post without a session", async () => {
    const curator = await signedInUser(server.url, server.db, { permissions: ["user", "publish"] });
    const doc = await newDocument("Mine");
    const other = await newDocument("Another");
    const unknown = `/b/${works.slug}/00000000-0000-4000-8000-000000000000/publish`;
    expect((await postForm(server.url, unknown, { intent: "publish" }, curator.cookie)).status).toBe(404);
    const path = `/b/${works.slug}/${doc.contentId}/publish`;
    expect((await postForm(server.url, path, { intent: "publish", versionId: other.versionId }, curator.cookie)).status).toBe(404);
    expect((await postForm(server.url, path, { intent: "publish", versionId: "not-a-uuid" }, curator.cookie)).status).toBe(404);
    expect((await publicationOf(server.db, works.id, doc.contentId))?.state).toBe("draft");
    const anonymous = await postForm(server.url, path, { intent: "publish" });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toMatch(/^\/login/);
  });
});

describe("publishing with what it references", () => {
  it("lists the unpublished documents it references, through the ones it references, and publishes the ticked ones with it", async () => {
    const curator = await signedInUser(server.url, server.db, { permissions: ["user", "publish"] });
    const place = await newDocument("Draft place", places);
    const maker = await newDocument("Draft maker", makers, { place: place.contentId });
    const publishedMaker = await newDocument("Published maker", makers);
    await publishDocument(server.db, TEST_PUBLISHER, { bucket: makers, contentId: publishedMaker.contentId });
    const work = await createContent(server.db, works.id, { title: "Work with makers", maker: maker.contentId }, null);
    const path = `/b/${works.slug}/${work.contentId}/publish`;
    const confirm = await page(server.url, path, curator.cookie);
    expect(confirm.status).toBe(200);
    const listed = [...confirm.html.matchAll(/name="include"[^>]*value="([0-9a-f-]+)"/g)].map((match) => match[1]);
    expect(listed.sort()).toEqual([maker.contentId, place.contentId].sort());
    expect(confirm.html).toContain("Draft maker");
    expect(confirm.html).toContain("Draft place");

    // Only the maker ticked: the place stays a draft; the work and the maker go live in one transaction.
    const posted = await postForm(
      server.url,
      path,
      { intent: "publish", versionId: work.versionId, include: maker.contentId },
      curator.cookie,
    );
    expect(posted.status).toBe(302);
    expect((await publicationOf(server.db, works.id, work.contentId))?.state).toBe("published");
    expect((await publicationOf(server.db, makers.id, maker.contentId))?.state).toBe("published");
    expect((await publicationOf(server.db, places.id, place.contentId))?.state).toBe("draft");
    const populated = (await (await read(`${documentPath(work.contentId)}?populate=2`)).json()) as Doc;
    const shownMaker = populated.data.maker as Doc;
    expect(shownMaker.data.name).toBe("Draft maker");
    expect(shownMaker.data.place).toBe(place.contentId);
  });

  it("publishes nothing it was not asked to, and ignores an include that is no unpublished reference of it", async () => {
    const curator = await signedInUser(server.url, server.db, { permissions: ["user", "publish"] });
    const maker = await newDocument("Left a draft", makers);
    const stranger = await newDocument("Not referenced");
    const work = await createContent(server.db, works.id, { title: "Published alone", maker: maker.contentId }, null);
    const path = `/b/${works.slug}/${work.contentId}/publish`;
    const body = new URLSearchParams({ intent: "publish", versionId: work.versionId });
    body.append("include", stranger.contentId);
    const posted = await fetch(`${server.url}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: curator.cookie, Origin: new URL(server.url).origin },
      body,
    });
    expect(posted.status).toBe(302);
    expect((await publicationOf(server.db, works.id, work.contentId))?.state).toBe("published");
    expect((await publicationOf(server.db, makers.id, maker.contentId))?.state).toBe("draft");
    expect((await publicationOf(server.db, works.id, stranger.contentId))?.state).toBe("draft");
  });
});

describe("the history", () => {
  it("marks the published version, compares it with the newest, and offers 'Publish' on the others to who may publish", async () => {
    const curator = await signedInUser(server.url, server.db, { permissions: ["user", "publish"] });
    const editor = await signedInUser(server.url, server.db, { permissions: ["user"] });
    const first = await newDocument("Published text");
    await publishDocument(server.db, TEST_PUBLISHER, { bucket: works, contentId: first.contentId });
    const second = await saveOver(works, first, { title: "Newer text" });
    const historyPath = `/b/${works.slug}/${first.contentId}/history`;
    const history = await page(server.url, historyPath, curator.cookie);
    expect(history.status).toBe(200);
    const published = new RegExp(`data-version="${first.versionId}"[\\s\\S]*?history-published`);
    expect(history.html).toMatch(published);
    const compare = `/b/${works.slug}/${first.contentId}/compare?a=${first.versionId}&amp;b=${second.versionId}`;
    expect(history.html).toContain(`href="${compare}"`);
    expect((await page(server.url, compare.replace("&amp;", "&"), curator.cookie)).status).toBe(200);
    const publishLink = `/b/${works.slug}/${first.contentId}/publish?versionId=${second.versionId}`;
    expect(history.html).toContain(`href="${publishLink}"`);
    expect(history.html).not.toContain(`publish?versionId=${first.versionId}`);
    const asEditor = await page(server.url, historyPath, editor.cookie);
    expect(asEditor.html).toMatch(published);
    expect(asEditor.html).not.toContain("/publish?versionId=");
  });
});
