import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent, saveVersion } from "@server/content/store";
import { addToRelease, createRelease } from "@server/content/release-editing";
import { createTestBucket, decode, errorPage, page, signedInUser } from "@tests/support/fixtures";
import { get, postForm } from "@tests/support/http";
import { pngOfSize, upload } from "@tests/support/media-fixtures";
import { TEST_PUBLISHER } from "@tests/support/publishing";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * Shareable links to a release (server/content/shareables.ts, docs/publishing.md "Shareable links to a release"):
 * POST /shareables with `releaseId` answers the link once; /shareables/{token} shows the release's name and each of
 * its documents read-only at its release version, with media through the link; the same rules as a document's link
 * (expiry, revoke, the maker's permission and buckets); a deleted release takes its links with it.
 */

let server: TestServer;
type Person = { user: { id: string; name: string }; cookie: string };
let editor: Person;
let colleague: Person;
let bucket: Bucket;
const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

beforeAll(async () => {
  server = await startTestServer();
  [editor, colleague] = await Promise.all([
    signedInUser(server.url, server.db, { name: "Rita Releaser" }),
    signedInUser(server.url, server.db, { name: "Colin Colleague" }),
  ]);
  bucket = await createTestBucket(server.db, {
    jsonSchema: {
      type: "object",
      properties: { title: { type: "string", title: "Title" }, picture: { type: "string", title: "Picture", _ref: "b-image" } },
    },
  });
});
afterAll(async () => {
  await server.stop();
});

/** A release of two documents: one at a chosen (older) version, one at its newest; and a document outside it. */
async function releaseWithDocuments(name = `Opening ${unique}`) {
  const first = await createContent(server.db, bucket.id, { title: "Chosen version" }, editor.user.id);
  await saveVersion(server.db, {
    bucketId: bucket.id,
    contentId: first.contentId,
    baseVersionId: first.versionId,
    userId: editor.user.id,
    data: { title: "A later save, not in the release" },
  });
  const second = await createContent(server.db, bucket.id, { title: "Newest at publish" }, editor.user.id);
  const outside = await createContent(server.db, bucket.id, { title: "Not in the release" }, editor.user.id);
  const release = await createRelease(server.db, TEST_PUBLISHER, { name });
  await addToRelease(server.db, TEST_PUBLISHER, release.id, {
    bucketId: bucket.id,
    contentId: first.contentId,
    versionId: first.versionId,
  });
  await addToRelease(server.db, TEST_PUBLISHER, release.id, { bucketId: bucket.id, contentId: second.contentId });
  return { release, first, second, outside };
}

const share = (releaseId: string, cookie = editor.cookie, fields: Record<string, string> = {}) =>
  postForm(server.url, "/shareables", { intent: "create", expiry: "7", releaseId, ...fields }, cookie);

async function makeLink(releaseId: string, cookie = editor.cookie) {
  const response = await share(releaseId, cookie);
  const html = await response.text();
  expect(response.status, html.slice(0, 300)).toBe(201);
  const url = /data-shareable-link="true" value="([^"]+)"|value="([^"]+)"[^>]*data-shareable-link/.exec(html);
  const link = decode(url?.[1] ?? url?.[2] ?? "");
  const token = /\/shareables\/([A-Za-z0-9_-]+)$/.exec(link)?.[1];
  expect(token, link).toBeDefined();
  return { token: token!, html };
}

const rowOf = async (token: string) =>
  (
    await server.db.query<{ id: string; releaseId: string | null; contentId: string | null }>(
      `SELECT id, release_id AS "releaseId", content_id AS "contentId" FROM shareables WHERE token_hash = $1`,
      [createHash("sha256").update(token).digest("base64url")],
    )
  ).rows[0];

const text = (html: string) =>
  decode(html.replace(/<[^>]+>/g, " "))
    .replace(/\s+/g, " ")
    .trim();

const notFound = async (path: string) => {
  const answer = await page(server.url, path);
  expect(answer.status, path).toBe(404);
  expect(errorPage(answer.html), path).toEqual({ status: "404", message: "This page could not be found" });
};

describe("a link to a release", () => {
  it("is made by a post with releaseId, shown once, and shows the release's documents at their release version to anyone", async () => {
    const { release, first, second } = await releaseWithDocuments();
    const { token, html } = await makeLink(release.id);
    expect(decode(html)).toContain("it is shown only this once");
    expect(await rowOf(token)).toMatchObject({ releaseId: release.id, contentId: null });
    const shared = await page(server.url, `/shareables/${token}`);
    expect(shared.status).toBe(200);
    expect(shared.response.headers.get("cache-control")).toBe("private, no-store");
    expect(shared.response.headers.get("referrer-policy")).toBe("no-referrer");
    const shown = text(shared.html);
    expect(shown).toContain(`Opening ${unique}`);
    expect(shown).toContain("Not published yet");
    expect(shown).toContain("Chosen version");
    expect(shown).toContain("Newest at publish");
    expect(shown).not.toContain("A later save, not in the release");
    expect(shown).not.toContain("Not in the release");
    expect(shared.html).toContain(`data-document="${first.contentId}"`);
    expect(shared.html).toContain(`data-document="${second.contentId}"`);
    // Each document is a section under the release's one h1.
    expect(shared.html.match(/<h1[ >]/g)).toHaveLength(1);
    // In Dutch too.
    const dutch = await page(server.url, `/shareables/${token}`, undefined, { "Accept-Language": "nl" });
    expect(text(dutch.html)).toContain("Nog niet gepubliceerd");
  });

  it("follows the release: a document added later shows, a changed version shows the new one", async () => {
    const { release, first } = await releaseWithDocuments(`Growing ${unique}`);
    const { token } = await makeLink(release.id);
    const later = await createContent(server.db, bucket.id, { title: "Added after the link" }, editor.user.id);
    await addToRelease(server.db, TEST_PUBLISHER, release.id, { bucketId: bucket.id, contentId: later.contentId });
    await addToRelease(server.db, TEST_PUBLISHER, release.id, { bucketId: bucket.id, contentId: first.contentId, versionId: null });
    const shown = text((await page(server.url, `/shareables/${token}`)).html);
    expect(shown).toContain("Added after the link");
    expect(shown).toContain("A later save, not in the release");
  });

  it("refuses an unknown release (404), a malformed id (400), a signed-out post, and a cross-site post", async () => {
    expect((await share("00000000-0000-4000-8000-000000000000")).status).toBe(404);
    const malformed = await share("not-a-release");
    expect(malformed.status).toBe(400);
    expect(decode(await malformed.text())).toContain("Choose a release to share.");
    const { release } = await releaseWithDocuments(`Guarded ${unique}`);
    const signedOut = await share(release.id, "");
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toMatch(/^\/login/);
    const crossSite = await postForm(server.url, "/shareables", { intent: "create", expiry: "7", releaseId: release.id }, editor.cookie, {
      Origin: "https://evil.example",
    });
    expect(crossSite.status).toBe(403);
    expect((await server.db.query(`SELECT count(*)::int AS n FROM shareables WHERE release_id = $1`, [release.id])).rows[0]).toEqual({
      n: 0,
    });
  });

  it("stops working when it expires, is revoked, or its maker loses the user permission; a deleted release takes it along", async () => {
    const { release } = await releaseWithDocuments(`Rules ${unique}`);
    const expiring = await makeLink(release.id);
    await server.db.query("UPDATE shareables SET expires_at = now() - interval '1 minute' WHERE id = $1", [
      (await rowOf(expiring.token))!.id,
    ]);
    await notFound(`/shareables/${expiring.token}`);

    const revoking = await makeLink(release.id);
    const { id } = (await rowOf(revoking.token))!;
    expect((await postForm(server.url, "/shareables", { intent: "revoke", id }, colleague.cookie)).status).toBe(404);
    expect((await page(server.url, `/shareables/${revoking.token}`)).status).toBe(200);
    expect((await postForm(server.url, "/shareables", { intent: "revoke", id }, editor.cookie)).status).toBe(302);
    await notFound(`/shareables/${revoking.token}`);

    const maker = await signedInUser(server.url, server.db, { name: "Short-lived maker" });
    const theirs = await makeLink(release.id, maker.cookie);
    expect((await page(server.url, `/shareables/${theirs.token}`)).status).toBe(200);
    await server.db.query("UPDATE users SET permissions = '{}' WHERE id = $1", [maker.user.id]);
    await notFound(`/shareables/${theirs.token}`);

    const kept = await makeLink(release.id);
    await server.db.query("DELETE FROM releases WHERE id = $1", [release.id]);
    await notFound(`/shareables/${kept.token}`);
    expect(await rowOf(kept.token)).toBeUndefined();
  });

  it("shows only the documents of buckets its maker sees", async () => {
    const hidden = await createTestBucket(server.db, { jsonSchema: { type: "object", properties: { title: { type: "string" } } } });
    const { release } = await releaseWithDocuments(`Scoped ${unique}`);
    const secret = await createContent(server.db, hidden.id, { title: "In a bucket out of sight" }, editor.user.id);
    await addToRelease(server.db, TEST_PUBLISHER, release.id, { bucketId: hidden.id, contentId: secret.contentId });
    const maker = await signedInUser(server.url, server.db, { name: "Scoped maker", buckets: [bucket.slug] });
    const { token } = await makeLink(release.id, maker.cookie);
    const shown = text((await page(server.url, `/shareables/${token}`)).html);
    expect(shown).toContain("Chosen version");
    expect(shown).not.toContain("In a bucket out of sight");
    // The editor (who sees every bucket) shares all of it.
    expect(text((await page(server.url, `/shareables/${(await makeLink(release.id)).token}`)).html)).toContain("In a bucket out of sight");
  });

  it("serves the media its documents name through the link, and nothing else", async () => {
    const uploadImage = async (name: string) => {
      const response = await upload(
        server.url,
        "image",
        editor.cookie,
        { bucket: bucket.slug, uid: "u1" },
        { data: await pngOfSize(1920, 1080), name, type: "image/png" },
      );
      expect(response.status, await response.clone().text()).toBe(200);
      return ((await response.json()) as Array<{ contentId: string }>)[0]!.contentId;
    };
    const [picture, elsewhere] = [await uploadImage("poster.png"), await uploadImage("other.png")];
    const document = await createContent(server.db, bucket.id, { title: "With a picture", picture }, editor.user.id);
    const release = await createRelease(server.db, TEST_PUBLISHER, { name: `Media ${unique}` });
    await addToRelease(server.db, TEST_PUBLISHER, release.id, { bucketId: bucket.id, contentId: document.contentId });
    const { token } = await makeLink(release.id);
    const shared = await page(server.url, `/shareables/${token}`);
    const src = /<img src="([^"]+)" alt="poster.png" class="shared-image"/.exec(shared.html)?.[1];
    expect(src).toBe(`/shareables/${token}/media/${picture}`);
    const image = await get(server.url, src!);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect((await get(server.url, `/shareables/${token}/media/${elsewhere}`)).status).toBe(404);
  });
});

describe("/shareables lists release links", () => {
  it("with the release's name, to their maker (and an admin), not to another user", async () => {
    const { release } = await releaseWithDocuments(`Listed ${unique}`);
    const { token } = await makeLink(release.id);
    const { id } = (await rowOf(token))!;
    const mine = await page(server.url, "/shareables", editor.cookie);
    const row = new RegExp(`<tr data-shareable="${id}"[^>]*>(.*?)</tr>`, "s").exec(mine.html)?.[1] ?? "";
    expect(text(row)).toContain(`Listed ${unique}`);
    expect(text(row)).toContain("Release");
    expect(text(row)).toContain("As the release shows it");
    expect(row).toContain(`href="/releases/${release.id}"`);
    expect(mine.html).not.toContain(token);
    const theirs = await page(server.url, "/shareables", colleague.cookie);
    expect(theirs.html).not.toContain(`data-shareable="${id}"`);
    expect(theirs.html).not.toContain(`Listed ${unique}`);
    const admin = await signedInUser(server.url, server.db, { name: "Ada Admin", permissions: ["user", "admin"] });
    expect((await page(server.url, "/shareables", admin.cookie)).html).toContain(`data-shareable="${id}"`);
  });
});
