import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent, saveVersion } from "@server/content/store";
import { publicationOf } from "@server/content/publication-state";
import { getRelease, listReleases } from "@server/content/releases";
import { addToRelease, createRelease } from "@server/content/release-editing";
import { instantToZonedTime } from "@core/zoned-time";
import { createTestBucket, decode, page, signedInUser } from "@tests/support/fixtures";
import { formErrorText, inputValue, postForm } from "@tests/support/http";
import { TEST_PUBLISHER, createPublished } from "@tests/support/publishing";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The releases' pages (docs/publishing.md, Releases; issue 31) over HTTP, as a browser without JavaScript posts them:
 * create, add from a document, schedule in the exhibits' time zone, publish with the references it needs, roll back;
 * refusals re-render with their message and the input kept; only users who may publish get in.
 */

let server: TestServer;
let works: Bucket;
let makers: Bucket;
let curator: { cookie: string };
const unique = Date.now().toString(36);
const serverZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

beforeAll(async () => {
  server = await startTestServer();
  makers = await createTestBucket(server.db, {
    slug: `rpmakers-${unique}`,
    collectionName: `rpmakers-${unique}`,
    jsonSchema: { type: "object", properties: { name: { type: "string" } } },
  });
  works = await createTestBucket(server.db, {
    slug: `rpworks-${unique}`,
    collectionName: `rpworks-${unique}`,
    jsonSchema: { type: "object", properties: { title: { type: "string" }, maker: { type: "string", _ref: makers.collectionName } } },
  });
  curator = await signedInUser(server.url, server.db, { permissions: ["user", "publish"] });
});
afterAll(() => server.stop());

const releaseIdOf = (location: string | null) => /^\/releases\/([0-9a-f-]{36})\?notice=/.exec(location ?? "")?.[1] ?? null;

async function newRelease(name: string): Promise<string> {
  const response = await postForm(server.url, "/releases", { name }, curator.cookie);
  expect(response.status).toBe(302);
  const id = releaseIdOf(response.headers.get("location"));
  expect(id).not.toBeNull();
  return id!;
}

describe("the releases' pages", () => {
  it("create a release, add a document from its page, and list it with its documents", async () => {
    const doc = await createContent(server.db, works.id, { title: "Night of the tides" }, null);
    const id = await newRelease(`Opening ${unique}`);
    const list = await page(server.url, "/releases", curator.cookie);
    expect(list.status).toBe(200);
    expect(decode(list.html)).toContain(`Opening ${unique}`);

    const addPath = `/b/${works.slug}/${doc.contentId}/release`;
    const form = await page(server.url, addPath, curator.cookie);
    expect(form.status).toBe(200);
    expect(decode(form.html)).toContain(`Add “Night of the tides” to a release`);
    const added = await postForm(server.url, addPath, { releaseId: id, versionId: "" }, curator.cookie);
    expect(added.status).toBe(302);
    expect(added.headers.get("location")).toBe(`/releases/${id}?notice=added`);
    const shown = await page(server.url, `/releases/${id}?notice=added`, curator.cookie);
    expect(decode(shown.html)).toContain("Night of the tides");
    expect(decode(shown.html)).toContain("New on exhibits");
    expect((await getRelease(server.db, id)).items.map((item) => item.contentId)).toEqual([doc.contentId]);
  });

  it("add a document to a new release named on the form, at the version the editor saw", async () => {
    const first = await createContent(server.db, works.id, { title: "First words" }, null);
    await saveVersion(server.db, {
      bucketId: works.id,
      contentId: first.contentId,
      baseVersionId: first.versionId,
      data: { title: "Later words" },
      userId: null,
    });
    const name = `Fresh ${unique}`;
    const posted = await postForm(
      server.url,
      `/b/${works.slug}/${first.contentId}/release`,
      { releaseId: "new", name, versionId: first.versionId },
      curator.cookie,
    );
    const id = releaseIdOf(posted.headers.get("location"));
    expect(id).not.toBeNull();
    const release = await getRelease(server.db, id!);
    expect(release).toMatchObject({ name, state: "open" });
    expect(release.items[0]).toMatchObject({ versionId: first.versionId, title: "First words", releaseVersionNumber: 1 });
  });

  it("refuse a new release without a name, keeping what was chosen", async () => {
    const doc = await createContent(server.db, works.id, { title: "Nameless" }, null);
    const posted = await postForm(
      server.url,
      `/b/${works.slug}/${doc.contentId}/release`,
      { releaseId: "new", name: "  " },
      curator.cookie,
    );
    expect(posted.status).toBe(400);
    expect(formErrorText(await posted.text())).toBe("Give the release a name.");
    const empty = await postForm(server.url, "/releases", { name: "" }, curator.cookie);
    expect(empty.status).toBe(400);
    const long = await postForm(server.url, "/releases", { name: "x".repeat(201) }, curator.cookie);
    expect(long.status).toBe(400);
    expect(inputValue(await long.text(), "name")).toBe("x".repeat(201));
  });

  it("schedule in the exhibits' time zone, refuse a past or missing time with the input kept, and cancel", async () => {
    const doc = await createContent(server.db, works.id, { title: "At noon" }, null);
    const id = await newRelease(`Noon ${unique}`);
    await addToRelease(server.db, TEST_PUBLISHER, id, { bucketId: works.id, contentId: doc.contentId });
    const path = `/releases/${id}`;
    const past = await postForm(server.url, path, { intent: "schedule", at: "2020-01-01T10:00" }, curator.cookie);
    expect(past.status).toBe(400);
    const html = await past.text();
    expect(formErrorText(html)).toBe("Choose a time in the future.");
    expect(inputValue(html, "at")).toBe("2020-01-01T10:00");
    expect((await postForm(server.url, path, { intent: "schedule", at: "soon" }, curator.cookie)).status).toBe(400);

    const at = new Date(Date.now() + 3 * 86_400_000);
    at.setUTCSeconds(0, 0);
    const local = instantToZonedTime(at, serverZone);
    const scheduled = await postForm(server.url, path, { intent: "schedule", at: local }, curator.cookie);
    expect(scheduled.headers.get("location")).toBe(`${path}?notice=scheduled`);
    expect(await getRelease(server.db, id)).toMatchObject({ state: "scheduled", scheduledAt: at });
    expect((await publicationOf(server.db, works.id, doc.contentId))?.state).toBe("scheduled");
    const shown = await page(server.url, path, curator.cookie);
    expect(inputValue(shown.html, "at")).toBe(local);

    expect((await postForm(server.url, path, { intent: "unschedule" }, curator.cookie)).headers.get("location")).toBe(
      `${path}?notice=unscheduled`,
    );
    expect(await getRelease(server.db, id)).toMatchObject({ state: "open", scheduledAt: null });
  });

  it("publish after the confirmation with the unpublished documents it references, then roll back", async () => {
    const maker = await createContent(server.db, makers.id, { name: "A maker nobody published" }, null);
    const work = await createPublished(server.db, works.id, { title: "Before", maker: maker.contentId }, null);
    const changed = await saveVersion(server.db, {
      bucketId: works.id,
      contentId: work.contentId,
      baseVersionId: work.versionId,
      data: { title: "After", maker: maker.contentId },
      userId: null,
    });
    const id = await newRelease(`Tides ${unique}`);
    await addToRelease(server.db, TEST_PUBLISHER, id, { bucketId: works.id, contentId: work.contentId });
    const path = `/releases/${id}`;
    const shown = decode((await page(server.url, path, curator.cookie)).html);
    expect(shown).toContain("Changed: title");
    expect(shown).toContain(
      `/b/${works.slug}/${work.contentId}/compare?a=${work.versionId}&amp;b=${changed.versionId}`.replace("&amp;", "&"),
    );
    const confirm = decode((await page(server.url, `${path}?confirm=publish`, curator.cookie)).html);
    expect(confirm).toContain(`Publish “Tides ${unique}” now?`);
    expect(confirm).toContain("A maker nobody published");

    const published = await postForm(server.url, path, { intent: "publish", include: maker.contentId }, curator.cookie);
    expect(published.headers.get("location")).toBe(`${path}?notice=published`);
    expect((await publicationOf(server.db, works.id, work.contentId))?.publishedVersionId).toBe(changed.versionId);
    expect((await publicationOf(server.db, makers.id, maker.contentId))?.state).toBe("published");
    expect((await getRelease(server.db, id)).items.map((item) => item.contentId).sort()).toEqual([work.contentId, maker.contentId].sort());
    // Published: no longer changed; a second publish is refused with its reason.
    const again = await postForm(server.url, path, { intent: "publish" }, curator.cookie);
    expect(again.status).toBe(409);
    expect(formErrorText(await again.text())).toBe("This release is published or rolled back: it can no longer be changed.");

    expect(decode((await page(server.url, `${path}?confirm=rollback`, curator.cookie)).html)).toContain(`Roll back “Tides ${unique}”?`);
    const rolled = await postForm(server.url, path, { intent: "rollback" }, curator.cookie);
    expect(rolled.headers.get("location")).toBe(`${path}?notice=rolledBack`);
    expect((await publicationOf(server.db, works.id, work.contentId))?.publishedVersionId).toBe(work.versionId);
    expect((await publicationOf(server.db, makers.id, maker.contentId))?.state).toBe("unpublished");
  });

  it("refuse to publish or schedule a release without documents", async () => {
    const id = await newRelease(`Empty ${unique}`);
    const posted = await postForm(server.url, `/releases/${id}`, { intent: "publish" }, curator.cookie);
    expect(posted.status).toBe(400);
    expect(formErrorText(await posted.text())).toBe("Add a document first: a release without documents has nothing to publish.");
    expect((await getRelease(server.db, id)).state).toBe("open");
  });

  it("answer 404 for an unknown release and 403 to an editor who may not publish, on every page and action", async () => {
    expect((await page(server.url, "/releases/00000000-0000-4000-8000-000000000000", curator.cookie)).status).toBe(404);
    expect((await page(server.url, "/releases/not-an-id", curator.cookie)).status).toBe(404);
    const release = await createRelease(server.db, TEST_PUBLISHER, { name: `Closed ${unique}` });
    const doc = await createContent(server.db, works.id, { title: "Out of reach" }, null);
    const editor = await signedInUser(server.url, server.db, { permissions: ["user"] });
    for (const path of ["/releases", `/releases/${release.id}`, `/b/${works.slug}/${doc.contentId}/release`])
      expect((await page(server.url, path, editor.cookie)).status, path).toBe(403);
    const posts: Array<[string, Record<string, string>]> = [
      ["/releases", { name: "Mine" }],
      [`/releases/${release.id}`, { intent: "publish" }],
      [`/releases/${release.id}`, { intent: "rename", name: "Taken" }],
      [`/b/${works.slug}/${doc.contentId}/release`, { releaseId: release.id }],
    ];
    for (const [path, fields] of posts) expect((await postForm(server.url, path, fields, editor.cookie)).status, path).toBe(403);
    expect((await listReleases(server.db)).some((listed) => listed.name === "Mine")).toBe(false);
    expect((await getRelease(server.db, release.id)).items).toEqual([]);
    expect((await page(server.url, "/releases")).status).toBe(302);
  });
});
