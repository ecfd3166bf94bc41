import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent, saveVersion } from "@server/content/store";
import { addToRelease, createRelease } from "@server/content/release-editing";
import { publishRelease, rollbackRelease } from "@server/content/release-rollout";
import { createPublished, TEST_PUBLISHER } from "@tests/support/publishing";
import { createTestBucket } from "@tests/support/fixtures";
import { deliver, deliveryClient, expectProblem, json, type Doc } from "@tests/support/delivery";
import { readBundle, verifyManifest } from "@tests/support/bundle";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * Preview clients (docs/delivery.md, "Preview"): version=newest and release={id} on the document, list, singleton
 * and bundle calls, for a client with preview only; their answers are private, no-store, with ETags of their own.
 */

let server: TestServer;
const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
let works: Bucket;
let artists: Bucket;
let home: Bucket;
let previewToken: string;
let normalToken: string;
/** Published v1, then a newer draft v2 (the release's). */
let changed: { contentId: string; v1: string; v2: string };
/** Never published; in the release. */
let draft: { contentId: string; versionId: string };
/** Never published and in no release. */
let loose: string;
/** Published; in no release. */
let stable: string;
/** An artist never published, added to the release at its newest version; `changed` v2 refers to it. */
let artist: string;
let releaseId: string;

const page = (slug: string, query = "") => `/api/v1/delivery/buckets/${slug}/documents${query}`;
const one = (slug: string, id: string, query = "") => `/api/v1/delivery/buckets/${slug}/documents/${id}${query}`;
const ids = (items: Doc[]) => items.map((item) => item.contentId).sort();

beforeAll(async () => {
  server = await startTestServer();
  artists = await createTestBucket(server.db, {
    slug: `pv-artists-${unique}`,
    collectionName: `pv-artists-${unique}`,
    jsonSchema: { type: "object", properties: { name: { type: "string" } } },
  });
  works = await createTestBucket(server.db, {
    slug: `pv-works-${unique}`,
    collectionName: `pv-works-${unique}`,
    jsonSchema: {
      type: "object",
      properties: { title: { type: "string" }, artist: { type: "string", _ref: `pv-artists-${unique}` } },
    },
  });
  home = await createTestBucket(server.db, { slug: `pv-home-${unique}`, collectionName: `pv-home-${unique}`, singleton: true });
  previewToken = (await deliveryClient(server.db, { read: [works.slug, artists.slug, home.slug], preview: true })).token;
  normalToken = (await deliveryClient(server.db, { read: [works.slug, artists.slug, home.slug] })).token;

  artist = (await createContent(server.db, artists.id, { name: "Unpublished artist" }, null)).contentId;
  const v1 = await createPublished(server.db, works.id, { title: "Changed, published" }, null);
  const v2 = await saveVersion(server.db, {
    bucketId: works.id,
    contentId: v1.contentId,
    baseVersionId: v1.versionId,
    data: { title: "Changed, in the release", artist },
    userId: null,
  });
  changed = { contentId: v1.contentId, v1: v1.versionId, v2: v2.versionId };
  const drafted = await createContent(server.db, works.id, { title: "Draft, in the release" }, null);
  draft = { contentId: drafted.contentId, versionId: drafted.versionId };
  loose = (await createContent(server.db, works.id, { title: "Draft, in no release" }, null)).contentId;
  stable = (await createPublished(server.db, works.id, { title: "Published, in no release" }, null)).contentId;
  await createPublished(server.db, home.id, { title: "Home, published" }, null).then((home1) =>
    saveVersion(server.db, {
      bucketId: home.id,
      contentId: home1.contentId,
      baseVersionId: home1.versionId,
      data: { title: "Home, newest" },
      userId: null,
    }),
  );

  const release = await createRelease(server.db, TEST_PUBLISHER, { name: `Opening ${unique}` });
  releaseId = release.id;
  await addToRelease(server.db, TEST_PUBLISHER, releaseId, { bucketId: works.id, contentId: changed.contentId, versionId: changed.v2 });
  await addToRelease(server.db, TEST_PUBLISHER, releaseId, { bucketId: works.id, contentId: draft.contentId });
  await addToRelease(server.db, TEST_PUBLISHER, releaseId, { bucketId: artists.id, contentId: artist });
});

afterAll(async () => {
  await server.stop();
});

describe("a release preview", () => {
  it("a preview client sees the release, a normal client does not", async () => {
    const previewed = await json<{ items: Doc[] }>(await deliver(server.url, page(works.slug, `?release=${releaseId}`), previewToken));
    expect(ids(previewed.items)).toEqual([changed.contentId, draft.contentId, stable].sort());
    const byId = new Map(previewed.items.map((item) => [item.contentId, item]));
    expect(byId.get(changed.contentId)).toMatchObject({ versionId: changed.v2, data: { title: "Changed, in the release" } });
    expect(byId.get(draft.contentId)).toMatchObject({ versionId: draft.versionId });

    const published = await json<{ items: Doc[] }>(await deliver(server.url, page(works.slug), normalToken));
    expect(ids(published.items)).toEqual([changed.contentId, stable].sort());
    expect(published.items.find((item) => item.contentId === changed.contentId)).toMatchObject({ versionId: changed.v1 });

    const refused = await expectProblem(await deliver(server.url, page(works.slug, `?release=${releaseId}`), normalToken), 403);
    expect(refused.type).toBe("urn:vitrine:problem:forbidden");
    expect(refused.detail).toMatch(/preview/);
  });

  it("answers one document at its release version, and one outside the release as published", async () => {
    const doc = await json<Doc>(await deliver(server.url, one(works.slug, changed.contentId, `?release=${releaseId}`), previewToken));
    expect(doc).toMatchObject({ versionId: changed.v2, data: { title: "Changed, in the release" } });
    const drafted = await json<Doc>(await deliver(server.url, one(works.slug, draft.contentId, `?release=${releaseId}`), previewToken));
    expect(drafted.versionId).toBe(draft.versionId);
    await expectProblem(await deliver(server.url, one(works.slug, loose, `?release=${releaseId}`), previewToken), 404);
    // Without a preview parameter a preview client gets what everyone gets.
    await expectProblem(await deliver(server.url, one(works.slug, draft.contentId), previewToken), 404);
    expect((await json<Doc>(await deliver(server.url, one(works.slug, changed.contentId), previewToken))).versionId).toBe(changed.v1);
  });

  it("counts a document the release shows as present: its reference is populated", async () => {
    const path = one(works.slug, changed.contentId, `?populate=1`);
    const previewed = await json<Doc>(await deliver(server.url, `${path}&release=${releaseId}`, previewToken));
    expect(previewed.data.artist).toMatchObject({ contentId: artist, data: { name: "Unpublished artist" } });
    // The newest version refers to it too, and under version=newest every document is present.
    const newest = await json<Doc>(await deliver(server.url, `${path}&version=newest`, previewToken));
    expect(newest.data.artist).toMatchObject({ contentId: artist });
  });

  it("is private and never stored by a shared cache, with ETags that differ from the published answer's", async () => {
    const published = await deliver(server.url, one(works.slug, stable), previewToken);
    const previewed = await deliver(server.url, one(works.slug, stable, `?release=${releaseId}`), previewToken);
    const newest = await deliver(server.url, one(works.slug, stable, `?version=newest`), previewToken);
    const bodies = await Promise.all([published, previewed, newest].map((response) => response.json()));
    // The same document at the same version: the same body (under version=newest updatedAt is its last save), yet three tags.
    expect(bodies[1]).toEqual(bodies[0]);
    expect({ ...bodies[2], updatedAt: null }).toEqual({ ...bodies[0], updatedAt: null });
    expect(published.headers.get("cache-control")).toBe("private, no-cache");
    for (const response of [previewed, newest]) expect(response.headers.get("cache-control")).toBe("private, no-store");
    const tags = [published, previewed, newest].map((response) => response.headers.get("etag"));
    expect(new Set(tags).size).toBe(3);
    // A published ETag does not validate a preview (and the preview's own does).
    const revalidated = await deliver(server.url, one(works.slug, stable, `?release=${releaseId}`), previewToken, {
      "If-None-Match": tags[0]!,
    });
    expect(revalidated.status).toBe(200);
    const again = await deliver(server.url, one(works.slug, stable, `?release=${releaseId}`), previewToken, { "If-None-Match": tags[1]! });
    expect(again.status).toBe(304);
    expect(again.headers.get("cache-control")).toBe("private, no-store");
    // Lists too.
    const list = await deliver(server.url, page(works.slug, `?release=${releaseId}`), previewToken);
    const publishedList = await deliver(server.url, page(works.slug), previewToken);
    expect(list.headers.get("cache-control")).toBe("private, no-store");
    expect(list.headers.get("etag")).not.toBe(publishedList.headers.get("etag"));
  });

  it("refuses a bad release id (400), an unknown one (404), version with release (400), and a bad version (400)", async () => {
    expect(
      (await expectProblem(await deliver(server.url, page(works.slug, "?release=nonsense"), previewToken), 400, "release")).detail,
    ).toMatch(/nonsense/);
    const unknownId = "00000000-0000-4000-8000-000000000000";
    const unknown = await expectProblem(await deliver(server.url, page(works.slug, `?release=${unknownId}`), previewToken), 404, "release");
    expect(unknown.detail).toContain(unknownId);
    await expectProblem(await deliver(server.url, page(works.slug, `?release=${releaseId}&version=newest`), previewToken), 400, "version");
    await expectProblem(await deliver(server.url, page(works.slug, "?version=latest"), previewToken), 400, "version");
    // version=published is the default, for any client.
    expect((await deliver(server.url, page(works.slug, "?version=published"), normalToken)).status).toBe(200);
  });

  it("a published release answers what is live; a rolled-back one 404s", async () => {
    const other = await createRelease(server.db, TEST_PUBLISHER, { name: `Published ${unique}` });
    // A bucket of its own, so that the other tests' lists stay as they are.
    const bucket = await createTestBucket(server.db, { slug: `pv-live-${unique}`, collectionName: `pv-live-${unique}` });
    const token = (await deliveryClient(server.db, { read: [bucket.slug], preview: true })).token;
    const doc = await createPublished(server.db, bucket.id, { title: "Live" }, null);
    const newer = await saveVersion(server.db, {
      bucketId: bucket.id,
      contentId: doc.contentId,
      baseVersionId: doc.versionId,
      data: { title: "Live 2" },
      userId: null,
    });
    await addToRelease(server.db, TEST_PUBLISHER, other.id, { bucketId: bucket.id, contentId: doc.contentId });
    await publishRelease(server.db, TEST_PUBLISHER, other.id);
    const live = await deliver(server.url, one(bucket.slug, doc.contentId, `?release=${other.id}`), token);
    expect((await json<Doc>(live)).versionId).toBe(newer.versionId);
    expect(live.headers.get("cache-control")).toBe("private, no-store");
    await rollbackRelease(server.db, TEST_PUBLISHER, other.id);
    const gone = await expectProblem(
      await deliver(server.url, one(bucket.slug, doc.contentId, `?release=${other.id}`), token),
      404,
      "release",
    );
    expect(gone.detail).toMatch(/rolled back/);
  });
});

describe("version=newest", () => {
  it("answers every document's newest version, drafts included, to a preview client only", async () => {
    const newest = await json<{ items: Doc[] }>(await deliver(server.url, page(works.slug, "?version=newest&limit=100"), previewToken));
    expect(ids(newest.items)).toEqual(expect.arrayContaining([changed.contentId, draft.contentId, loose, stable]));
    expect(newest.items.find((item) => item.contentId === changed.contentId)?.versionId).toBe(changed.v2);
    const refused = await expectProblem(await deliver(server.url, page(works.slug, "?version=newest"), normalToken), 403);
    expect(refused.type).toBe("urn:vitrine:problem:forbidden");
    await expectProblem(await deliver(server.url, one(works.slug, loose, "?version=newest"), normalToken), 403);
    expect((await json<Doc>(await deliver(server.url, one(works.slug, loose, "?version=newest"), previewToken))).data).toEqual({
      title: "Draft, in no release",
    });
  });

  it("serves a singleton's newest version, and refuses it to a normal client", async () => {
    const path = `/api/v1/delivery/buckets/${home.slug}/singleton`;
    expect((await json<Doc>(await deliver(server.url, path, normalToken))).data).toEqual({ title: "Home, published" });
    const newest = await deliver(server.url, `${path}?version=newest`, previewToken);
    expect((await json<Doc>(newest)).data).toEqual({ title: "Home, newest" });
    expect(newest.headers.get("cache-control")).toBe("private, no-store");
    await expectProblem(await deliver(server.url, `${path}?version=newest`, normalToken), 403);
  });

  it("pages and filters under the preview (sort, cursor, q)", async () => {
    const first = await json<{ items: Doc[]; nextCursor: string | null }>(
      await deliver(server.url, page(works.slug, "?version=newest&limit=2&sort=createdAt&order=asc"), previewToken),
    );
    expect(first.items).toHaveLength(2);
    const rest = await json<{ items: Doc[] }>(
      await deliver(
        server.url,
        page(works.slug, `?version=newest&limit=100&sort=createdAt&order=asc&cursor=${first.nextCursor}`),
        previewToken,
      ),
    );
    expect(ids([...first.items, ...rest.items])).toEqual(expect.arrayContaining([changed.contentId, draft.contentId, loose, stable]));
    const searched = await json<{ items: Doc[] }>(
      await deliver(server.url, page(works.slug, "?version=newest&q=in%20no%20release"), previewToken),
    );
    expect(ids(searched.items)).toEqual([loose, stable].sort());
  });
});

describe("a preview bundle", () => {
  it("holds what the release will show, says so in its manifest, and is refused to a normal client", async () => {
    const query = `/api/v1/delivery/bundle?buckets=${works.slug}&release=${releaseId}`;
    await expectProblem(await deliver(server.url, query, normalToken), 403);
    const response = await deliver(server.url, query, previewToken);
    expect(response.status).toBe(200);
    const bundle = await readBundle(response.body!);
    verifyManifest(bundle);
    expect(bundle.manifest.preview).toEqual({ release: releaseId });
    const listed = bundle.manifest.buckets[0]!.documents;
    expect(listed.map((document) => document.contentId).sort()).toEqual([changed.contentId, draft.contentId, stable].sort());
    expect(listed.find((document) => document.contentId === changed.contentId)?.versionId).toBe(changed.v2);
    const published = await readBundle((await deliver(server.url, `/api/v1/delivery/bundle?buckets=${works.slug}`, normalToken)).body!);
    expect(published.manifest.preview).toBeUndefined();
    expect(published.manifest.buckets[0]!.documents.map((document) => document.contentId).sort()).toEqual(
      [changed.contentId, stable].sort(),
    );
  });
});
