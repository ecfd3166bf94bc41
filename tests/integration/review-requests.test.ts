import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent, saveVersion } from "@server/content/store";
import { publishDocument } from "@server/content/publishing";
import { openReviewOf, reviewersOf } from "@server/content/reviews";
import { createTestBucket, page, signedInUser } from "@tests/support/fixtures";
import { postForm } from "@tests/support/http";
import { TEST_PUBLISHER } from "@tests/support/publishing";
import { startMailServer, type TestMailServer } from "@tests/support/smtp";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * Asking for review (docs/publishing.md, issue 31): an editor who may not publish asks the bucket's publishers to
 * look at a document; they are told by mail and on their home page; publishing or a publisher closes the request.
 */

let server: TestServer;
let mail: TestMailServer;
let works: Bucket;
let other: Bucket;
const unique = Date.now().toString(36);

const reviewPath = (contentId: string) => `/b/${works.slug}/${contentId}/review`;
const editPath = (contentId: string) => `/b/${works.slug}/${contentId}/latest`;
const decode = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, "&");

async function draft(title: string) {
  return createContent(server.db, works.id, { title }, null);
}

async function openRows(contentId: string) {
  const { rows } = await server.db.query<{ note: string; versionId: string; requesterName: string }>(
    `SELECT note, version_id AS "versionId", requester_name AS "requesterName" FROM review_requests WHERE content_id = $1 AND closed_at IS NULL`,
    [contentId],
  );
  return rows;
}

async function activity(contentId: string) {
  const { rows } = await server.db.query<{ action: string; actorName: string }>(
    `SELECT action, actor_name AS "actorName" FROM admin_activity WHERE details->>'contentId' = $1 ORDER BY created_at, id`,
    [contentId],
  );
  return rows;
}

beforeAll(async () => {
  mail = await startMailServer();
  server = await startTestServer({
    env: { SMTP_URL: mail.url, MAIL_FROM: "Vitrine <vitrine@example.test>", PUBLIC_URL: "https://cms.example.test" },
  });
  works = await createTestBucket(server.db, {
    slug: `review-works-${unique}`,
    jsonSchema: { type: "object", properties: { title: { type: "string", title: "Title" } } },
  });
  other = await createTestBucket(server.db, { slug: `review-other-${unique}` });
});
afterAll(async () => {
  await server.stop();
  await mail.close();
});

describe("asking for review", () => {
  it("is offered to an editor who may not publish, and tells the bucket's publishers by mail in their language", async () => {
    const doc = await draft("Seascape at dusk");
    const editor = await signedInUser(server.url, server.db, { name: "Eva Editor", permissions: ["user"] });
    const curator = await signedInUser(server.url, server.db, { name: "Carla Curator", permissions: ["user", "publish"] });
    const dutch = await signedInUser(server.url, server.db, { name: "Daan Curator", permissions: ["user", "publish"] });
    await server.db.query("UPDATE users SET locale = 'nl' WHERE id = $1", [dutch.user.id]);
    const elsewhere = await signedInUser(server.url, server.db, { permissions: ["user", "publish"], buckets: [other.slug] });

    const edit = await page(server.url, editPath(doc.contentId), editor.cookie);
    expect(edit.html).toContain(`href="${reviewPath(doc.contentId)}"`);
    expect(edit.html).toContain(">Ask for review</a>");
    expect(edit.html).not.toContain(">Publish</a>");

    const form = await page(server.url, reviewPath(doc.contentId), editor.cookie);
    expect(form.status).toBe(200);
    expect(decode(form.html)).toContain("Ask for review of “Seascape at dusk”");
    expect(form.html).toMatch(/<textarea[^>]*name="note"[^>]*maxLength="1000"/i);

    const posted = await postForm(
      server.url,
      reviewPath(doc.contentId),
      { intent: "ask", versionId: doc.versionId, note: "Please check the Dutch title" },
      editor.cookie,
    );
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toBe(`${editPath(doc.contentId)}?review=asked`);
    expect(await openRows(doc.contentId)).toEqual([
      { note: "Please check the Dutch title", versionId: doc.versionId, requesterName: "Eva Editor" },
    ]);

    const english = await mail.waitForMail(curator.user.email);
    expect(english.subject).toBe("Review asked: Seascape at dusk");
    expect(english.text).toContain("Eva Editor asks you to review “Seascape at dusk”");
    expect(english.text).toContain("Please check the Dutch title");
    expect(english.text).toContain(`https://cms.example.test${editPath(doc.contentId)}`);
    const nederlands = await mail.waitForMail(dutch.user.email);
    expect(nederlands.subject).toBe("Beoordeling gevraagd: Seascape at dusk");
    // Who is told: publishers who may see the bucket, not an editor, nor one limited to another bucket.
    const told = (await reviewersOf(server.db, works)).map((reviewer) => reviewer.id);
    expect(told).toEqual(expect.arrayContaining([curator.user.id, dutch.user.id]));
    expect(told).not.toContain(elsewhere.user.id);
    expect(told).not.toContain(editor.user.id);
    // Neither the asker nor a publisher who cannot see the bucket is mailed.
    expect(
      mail.messages.some((message) => message.text?.includes(doc.contentId) && JSON.stringify(message.to).includes(elsewhere.user.email)),
    ).toBe(false);
    expect(mail.messages.some((message) => JSON.stringify(message.to).includes(editor.user.email))).toBe(false);

    const after = decode((await page(server.url, `${editPath(doc.contentId)}?review=asked`, editor.cookie)).html);
    expect(after).toContain("Review asked: the publishers are told.");
    expect(after).toMatch(/Review asked by Eva Editor, /);
    expect(after).toContain("Please check the Dutch title");
    expect(after).toContain(">Ask again</a>");
    expect(await activity(doc.contentId)).toEqual([{ action: "reviewAsked", actorName: "Eva Editor" }]);
  });

  it("is not offered while exhibits show the newest version, and is again once it changes", async () => {
    const doc = await draft("Lighthouse");
    await publishDocument(server.db, TEST_PUBLISHER, { bucket: works, contentId: doc.contentId });
    const editor = await signedInUser(server.url, server.db, { permissions: ["user"] });
    expect((await page(server.url, editPath(doc.contentId), editor.cookie)).html).not.toContain("Ask for review");
    await saveVersion(server.db, {
      bucketId: works.id,
      contentId: doc.contentId,
      baseVersionId: doc.versionId,
      data: { title: "Lighthouse at night" },
      userId: null,
    });
    expect((await page(server.url, editPath(doc.contentId), editor.cookie)).html).toContain(">Ask for review</a>");
  });

  it("keeps one open request per document: asking again moves it to the newer version and message", async () => {
    const first = await draft("Harbour lights");
    const editor = await signedInUser(server.url, server.db, { permissions: ["user"] });
    await postForm(server.url, reviewPath(first.contentId), { intent: "ask", versionId: first.versionId, note: "First" }, editor.cookie);
    const second = await saveVersion(server.db, {
      bucketId: works.id,
      contentId: first.contentId,
      baseVersionId: first.versionId,
      data: { title: "Harbour lights at night" },
      userId: null,
    });
    // An empty versionId asks for the newest.
    expect(
      (await postForm(server.url, reviewPath(first.contentId), { intent: "ask", versionId: "", note: "Second" }, editor.cookie)).status,
    ).toBe(302);
    expect(await openRows(first.contentId)).toMatchObject([{ note: "Second", versionId: second.versionId }]);
  });

  it("refuses a message over 1,000 characters with the form kept, and stores nothing", async () => {
    const doc = await draft("Dunes");
    const editor = await signedInUser(server.url, server.db, { permissions: ["user"] });
    const long = "x".repeat(1001);
    const refused = await postForm(
      server.url,
      reviewPath(doc.contentId),
      { intent: "ask", versionId: doc.versionId, note: long },
      editor.cookie,
    );
    expect(refused.status).toBe(422);
    const html = await refused.text();
    expect(html).toContain("A message can be at most 1,000 characters.");
    expect(html).toContain(long);
    expect(await openRows(doc.contentId)).toEqual([]);
  });

  it("answers 404 for an unknown document or version and a bucket out of sight, and sends a visitor to sign in", async () => {
    const doc = await draft("Polder");
    const editor = await signedInUser(server.url, server.db, { permissions: ["user"] });
    const outsider = await signedInUser(server.url, server.db, { permissions: ["user"], buckets: [other.slug] });
    const unknown = reviewPath("00000000-0000-4000-8000-000000000000");
    expect((await page(server.url, unknown, editor.cookie)).status).toBe(404);
    expect((await postForm(server.url, unknown, { intent: "ask" }, editor.cookie)).status).toBe(404);
    expect((await postForm(server.url, reviewPath(doc.contentId), { intent: "ask", versionId: "not-a-uuid" }, editor.cookie)).status).toBe(
      404,
    );
    const elsewhere = await createContent(server.db, other.id, { title: "Elsewhere" }, null);
    expect(
      (await postForm(server.url, reviewPath(doc.contentId), { intent: "ask", versionId: elsewhere.versionId }, editor.cookie)).status,
    ).toBe(404);
    expect((await page(server.url, reviewPath(doc.contentId), outsider.cookie)).status).toBe(404);
    expect((await postForm(server.url, reviewPath(doc.contentId), { intent: "ask" }, outsider.cookie)).status).toBe(404);
    const visitor = await page(server.url, reviewPath(doc.contentId));
    expect(visitor.status).toBe(302);
    expect(visitor.location).toMatch(/^\/login/);
    expect(await openRows(doc.contentId)).toEqual([]);
  });
});

describe("a publisher", () => {
  it("finds the request on the home page and the document's page, and publishing closes it", async () => {
    const doc = await draft("Windmill in winter");
    const editor = await signedInUser(server.url, server.db, { name: "Eli Editor", permissions: ["user"] });
    const curator = await signedInUser(server.url, server.db, { permissions: ["user", "publish"] });
    await postForm(server.url, reviewPath(doc.contentId), { intent: "ask", versionId: doc.versionId, note: "Ready" }, editor.cookie);

    const home = decode((await page(server.url, "/", curator.cookie)).html);
    expect(home).toContain("Waiting for review");
    expect(home).toContain(`<a href="${editPath(doc.contentId)}">Windmill in winter</a>`);
    expect(home).toMatch(/asked by Eli Editor, /);
    expect((await page(server.url, "/", editor.cookie)).html).not.toContain("Waiting for review");

    const edit = decode((await page(server.url, editPath(doc.contentId), curator.cookie)).html);
    expect(edit).toMatch(/Review asked by Eli Editor, /);
    expect(edit).toContain(">Close request</button>");

    await publishDocument(server.db, TEST_PUBLISHER, { bucket: works, contentId: doc.contentId });
    expect(await openReviewOf(server.db, doc.contentId)).toBeNull();
    expect((await page(server.url, "/", curator.cookie)).html).not.toContain(editPath(doc.contentId));
  });

  it("may close a request without publishing; an editor gets 403 and the request stays", async () => {
    const doc = await draft("Tulip field");
    const editor = await signedInUser(server.url, server.db, { permissions: ["user"] });
    const curator = await signedInUser(server.url, server.db, { name: "Cas Curator", permissions: ["user", "publish"] });
    await postForm(server.url, reviewPath(doc.contentId), { intent: "ask", versionId: doc.versionId }, editor.cookie);

    expect((await postForm(server.url, reviewPath(doc.contentId), { intent: "close" }, editor.cookie)).status).toBe(403);
    expect(await openRows(doc.contentId)).toHaveLength(1);

    const closed = await postForm(server.url, reviewPath(doc.contentId), { intent: "close" }, curator.cookie);
    expect(closed.status).toBe(302);
    expect(closed.headers.get("location")).toBe(`${editPath(doc.contentId)}?review=closed`);
    expect(await openRows(doc.contentId)).toEqual([]);
    expect((await page(server.url, `${editPath(doc.contentId)}?review=closed`, curator.cookie)).html).toContain(
      "The review request is closed.",
    );
    expect((await activity(doc.contentId)).map((row) => row.action)).toEqual(["reviewAsked", "reviewClosed"]);
  });

  it("sees the Dutch words in Dutch", async () => {
    const doc = await draft("Molen");
    const editor = await signedInUser(server.url, server.db, { name: "Noor", permissions: ["user"] });
    await server.db.query("UPDATE users SET locale = 'nl' WHERE id = $1", [editor.user.id]);
    expect((await page(server.url, editPath(doc.contentId), editor.cookie)).html).toContain(">Beoordeling vragen</a>");
    await postForm(server.url, reviewPath(doc.contentId), { intent: "ask", versionId: doc.versionId }, editor.cookie);
    const after = decode((await page(server.url, `${editPath(doc.contentId)}?review=asked`, editor.cookie)).html);
    expect(after).toContain("Beoordeling gevraagd: wie publiceert, weet het.");
    expect(after).toMatch(/Beoordeling gevraagd door Noor, /);
  });
});
