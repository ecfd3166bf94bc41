import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent, getLatestVersion, saveVersion, type ContentVersion } from "@server/content/store";
import { createTestBucket, decode, errorPage, page, signedInUser } from "@tests/support/fixtures";
import { get, inputValue, postForm } from "@tests/support/http";
import { pngOfSize, upload, videoOf } from "@tests/support/media-fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * A document's version history without JavaScript (server/content/history.ts, app/routes/bucket-history/): the
 * edit page's panel and /b/{bucket}/{contentId}/history list every version with its time, author and schema
 * version, 20 a page; /compare shows two versions field by field; a restore POST saves an older version as the new
 * latest through the save pipeline (the old versions kept); an older version's page saves on top of the latest.
 * Another bucket's or document's version, a private bucket and a cross-site post are refused.
 */

let server: TestServer;
let editor: { user: { id: string; name: string }; cookie: string };
let colleague: { user: { id: string; name: string }; cookie: string };
let artists: Bucket;

const schema = (artistsCollection: string) => ({
  type: "object",
  required: ["title"],
  properties: {
    title: { type: "string", title: "Title", translate: true },
    year: { type: "integer", title: "Year" },
    rooms: { type: "array", title: "Rooms", items: { type: "object", properties: { name: { type: "string", title: "Room name" } } } },
    artist: { type: "string", title: "Artist", _ref: artistsCollection },
    picture: { type: "string", title: "Picture", _ref: "b-image" },
  },
});

beforeAll(async () => {
  server = await startTestServer();
  [editor, colleague] = await Promise.all([
    signedInUser(server.url, server.db, { name: "Edna Editor" }),
    signedInUser(server.url, server.db, { name: "Colin Colleague" }),
  ]);
  artists = await createTestBucket(server.db, { jsonSchema: { type: "object", properties: { name: { type: "string", title: "Name" } } } });
});
afterAll(async () => {
  await server.stop();
});

/** A bucket of its own and a document in it with three versions: the editor's, the colleague's, an API client's. */
async function documentWithHistory() {
  const bucket = await createTestBucket(server.db, { jsonSchema: schema(artists.collectionName) });
  const first = await createContent(
    server.db,
    bucket.id,
    { title: { nl: "Wad", en: "Mudflats" }, year: 1911, rooms: [{ name: "East" }] },
    editor.user.id,
  );
  const second = await saveVersion(server.db, {
    bucketId: bucket.id,
    contentId: first.contentId,
    baseVersionId: first.versionId,
    userId: colleague.user.id,
    data: { title: { nl: "Wadden", en: "Mudflats" }, year: 1911, rooms: [{ name: "East" }, { name: "West" }] },
  });
  const third = await saveVersion(server.db, {
    bucketId: bucket.id,
    contentId: first.contentId,
    baseVersionId: second.versionId,
    userId: null,
    data: { title: { nl: "Wadden", en: "Mudflats" }, year: 1912, rooms: [{ name: "East" }, { name: "West" }] },
  });
  return { bucket, contentId: first.contentId, versions: [first, second, third] as const };
}

/** The versions a history list shows, in its order: [data-version, the entry's text]. */
function listedVersions(html: string): Array<[string, string]> {
  return [...html.matchAll(/<li class="history-entry[^"]*" data-version="([^"]+)">(.*?)<\/li>/gs)].map((match) => [
    match[1]!,
    decode(match[2]!.replace(/<[^>]+>/g, " "))
      .replace(/\s+/g, " ")
      .trim(),
  ]);
}

const restore = (slug: string, contentId: string, fields: Record<string, string>, cookie = editor.cookie) =>
  postForm(server.url, `/b/${slug}/${contentId}/history`, fields, cookie);

const versionCount = async (contentId: string) =>
  (await server.db.query<{ n: number }>("SELECT count(*)::int AS n FROM versions WHERE content_id = $1", [contentId])).rows[0]!.n;

describe("the history list", () => {
  it("lists every version newest first with its number, author (an API client's save says so) and schema version, on the edit page and its own page", async () => {
    const { bucket, contentId, versions } = await documentWithHistory();
    const history = await page(server.url, `/b/${bucket.slug}/${contentId}/history`, editor.cookie);
    expect(history.status).toBe(200);
    const listed = listedVersions(history.html);
    expect(listed.map(([id]) => id)).toEqual([versions[2].versionId, versions[1].versionId, versions[0].versionId]);
    expect(listed[0]![1]).toMatch(/^Version 3 latest .+ · API client or deleted account · schema 1$/);
    expect(listed[1]![1]).toMatch(/^Version 2 .+ · Colin Colleague · schema 1 Restore$/);
    expect(listed[2]![1]).toMatch(/^Version 1 .+ · Edna Editor · schema 1 Restore$/);
    // The latest opens on its own route, older versions on theirs.
    expect(history.html).toContain(`href="/b/${bucket.slug}/${contentId}/latest"`);
    expect(history.html).toContain(`href="/b/${bucket.slug}/${contentId}/${versions[0].versionId}"`);

    const edit = await page(server.url, `/b/${bucket.slug}/${contentId}/latest`, editor.cookie);
    expect(edit.html).toContain('<details class="history-panel"');
    expect(listedVersions(edit.html).map(([id]) => id)).toEqual(listed.map(([id]) => id));
    // An older version's page opens the panel and marks the version shown.
    const older = await page(server.url, `/b/${bucket.slug}/${contentId}/${versions[0].versionId}`, editor.cookie);
    expect(older.html).toContain('<details class="history-panel" open=""');
    expect(older.html).toMatch(new RegExp(`class="history-entry current" data-version="${versions[0].versionId}"`));
    // A new document has no history yet.
    expect((await page(server.url, `/b/${bucket.slug}/new`, editor.cookie)).html).not.toContain("history-panel");
  });

  it("numbers versions in the order they were saved, even when saves share a timestamp (PGlite's clock counts milliseconds)", async () => {
    const bucket = await createTestBucket(server.db);
    let version: ContentVersion = await createContent(server.db, bucket.id, { title: "v1" }, editor.user.id);
    const saved = [version.versionId];
    for (let n = 2; n <= 10; n += 1) {
      version = await saveVersion(server.db, {
        bucketId: bucket.id,
        contentId: version.contentId,
        baseVersionId: version.versionId,
        data: { title: `v${n}` },
        userId: editor.user.id,
      });
      saved.push(version.versionId);
    }
    await server.db.query(
      "UPDATE versions SET created_at = (SELECT min(created_at) FROM versions WHERE content_id = $1) WHERE content_id = $1",
      [version.contentId],
    );
    const listed = listedVersions((await page(server.url, `/b/${bucket.slug}/${version.contentId}/history`, editor.cookie)).html);
    expect(listed.map(([id]) => id)).toEqual([...saved].reverse());
    expect(listed.map(([, text]) => /^Version (\d+)/.exec(text)?.[1])).toEqual(saved.map((_, index) => String(saved.length - index)));
    const compared = await page(server.url, `/b/${bucket.slug}/${version.contentId}/compare?a=${saved[9]}&b=${saved[0]}`, editor.cookie);
    expect(decode(compared.html.replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ")).toContain("Version 1 compared with version 10");
  });

  it("pages long histories 20 at a time, newest first, with links between the pages", async () => {
    const bucket = await createTestBucket(server.db);
    let version: ContentVersion = await createContent(server.db, bucket.id, { title: "v1" }, editor.user.id);
    for (let n = 2; n <= 25; n += 1) {
      version = await saveVersion(server.db, {
        bucketId: bucket.id,
        contentId: version.contentId,
        baseVersionId: version.versionId,
        data: { title: `v${n}` },
        userId: editor.user.id,
      });
    }
    const base = `/b/${bucket.slug}/${version.contentId}/history`;
    const first = await page(server.url, base, editor.cookie);
    const numbers = (html: string) => listedVersions(html).map(([, text]) => Number(/^Version (\d+)/.exec(text)![1]));
    expect(numbers(first.html)).toEqual(Array.from({ length: 20 }, (_, index) => 25 - index));
    expect(first.html).toContain(`href="${base}?page=2"`);
    expect(decode(first.html)).toContain("Page 1 of 2");
    const second = await page(server.url, `${base}?page=2`, editor.cookie);
    expect(numbers(second.html)).toEqual([5, 4, 3, 2, 1]);
    expect(second.html).toContain(`href="${base}"`);
    // The edit page's panel shows the first page and links on.
    const edit = await page(server.url, `/b/${bucket.slug}/${version.contentId}/latest`, editor.cookie);
    expect(numbers(edit.html)).toHaveLength(20);
    expect(edit.html).toContain(`href="${base}?page=2"`);
    // A page past the end shows the last one.
    expect(numbers((await page(server.url, `${base}?page=9`, editor.cookie)).html)).toEqual([5, 4, 3, 2, 1]);
  });
});

describe("compare", () => {
  it("without a and b offers the choice: the versions as a GET form to this page, the newest against the one before chosen", async () => {
    const { bucket, contentId, versions } = await documentWithHistory();
    const path = `/b/${bucket.slug}/${contentId}/compare`;
    const choice = await page(server.url, path, editor.cookie);
    expect(choice.status).toBe(200);
    expect(errorPage(choice.html)).toBeNull();
    expect(decode(/<h1>(.*?)<\/h1>/.exec(choice.html)?.[1] ?? "")).toBe("Compare two versions");
    const form = /<form[^>]*class="history-compare-form"[^>]*>/.exec(choice.html)?.[0] ?? "";
    expect(form).toContain('method="get"');
    expect(form).toContain(`action="${path}"`);
    const radios = [...choice.html.matchAll(/<input[^>]*type="radio"[^>]*>/g)].map((match) => match[0]);
    const checked = (name: string) =>
      radios
        .filter((tag) => tag.includes(`name="${name}"`) && / checked(=""|\s|\/|>)/.test(tag))
        .map((tag) => /value="([^"]+)"/.exec(tag)?.[1]);
    expect(radios.length).toBe(6);
    expect(checked("a")).toEqual([versions[1].versionId]);
    expect(checked("b")).toEqual([versions[2].versionId]);
    // Submitting the form as it stands compares them.
    const compared = await page(server.url, `${path}?a=${versions[1].versionId}&b=${versions[2].versionId}`, editor.cookie);
    expect(decode(compared.html.replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ")).toContain("Version 2 compared with version 3");
    const dutch = await page(server.url, path, editor.cookie, { "Accept-Language": "nl" });
    expect(decode(/<h1>(.*?)<\/h1>/.exec(dutch.html)?.[1] ?? "")).toBe("Twee versies vergelijken");
  });

  it("shows two versions field by field, older first whichever order they are asked in: translated fields per locale, lists by item", async () => {
    const { bucket, contentId, versions } = await documentWithHistory();
    const compared = await page(
      server.url,
      `/b/${bucket.slug}/${contentId}/compare?a=${versions[2].versionId}&b=${versions[0].versionId}`,
      editor.cookie,
    );
    expect(compared.status).toBe(200);
    const text = decode(compared.html.replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ");
    expect(text).toContain("Version 1 compared with version 3");
    const rows = [...compared.html.matchAll(/<tr class="diff-row diff-(\w+)" data-field="([^"]+)">(.*?)<\/tr>/gs)].map((match) => [
      match[2],
      match[1],
      decode(match[3]!.replace(/<[^>]+>/g, " "))
        .replace(/\s+/g, " ")
        .trim(),
    ]);
    expect(rows).toEqual([
      ["title.nl", "changed", "Title › NL Wad Wadden"],
      ["year", "changed", "Year 1911 1912"],
      ["rooms[1].name", "added", "Rooms › Item 2 › Room name (empty) West"],
    ]);
    // The same version twice: nothing differs.
    const same = await page(
      server.url,
      `/b/${bucket.slug}/${contentId}/compare?a=${versions[1].versionId}&b=${versions[1].versionId}`,
      editor.cookie,
    );
    expect(decode(same.html)).toContain("These versions are the same.");
  });

  it("shows media as thumbnails and references by the referenced document's title", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: schema(artists.collectionName) });
    const response = await upload(
      server.url,
      "image",
      editor.cookie,
      { bucket: bucket.slug, uid: "u1" },
      { data: await pngOfSize(1920, 1080), name: "dunes.png", type: "image/png" },
    );
    expect(response.status).toBe(200);
    const [image] = (await response.json()) as Array<{ contentId: string; _id: string }>;
    const artist = await createContent(server.db, artists.id, { name: "Mesdag" }, editor.user.id);
    const first = await createContent(server.db, bucket.id, { title: { nl: "Wad", en: "Mudflats" } }, editor.user.id);
    const second = await saveVersion(server.db, {
      bucketId: bucket.id,
      contentId: first.contentId,
      baseVersionId: first.versionId,
      userId: editor.user.id,
      data: { title: { nl: "Wad", en: "Mudflats" }, picture: image!.contentId, artist: artist.contentId },
    });
    const compared = await page(
      server.url,
      `/b/${bucket.slug}/${first.contentId}/compare?a=${first.versionId}&b=${second.versionId}`,
      editor.cookie,
    );
    const picture = /<tr class="diff-row diff-added" data-field="picture">(.*?)<\/tr>/s.exec(compared.html)?.[1] ?? "";
    const thumbnail = /<img src="([^"]+)" alt="dunes.png" class="diff-thumb"/.exec(picture)?.[1];
    expect(thumbnail).toBeDefined();
    const served = await get(server.url, decode(thumbnail!), editor.cookie);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    const reference = /<tr class="diff-row diff-added" data-field="artist">(.*?)<\/tr>/s.exec(compared.html)?.[1] ?? "";
    expect(reference).toContain(`<a href="/b/${artists.slug}/${artist.contentId}/latest"`);
    expect(reference).toContain(">Mesdag</a>");
  });
  it("shows a video by its chosen still", async () => {
    const bucket = await createTestBucket(server.db, {
      jsonSchema: { type: "object", properties: { clip: { type: "string", title: "Clip", _ref: "b-video" } } },
    });
    const response = await upload(
      server.url,
      "video",
      editor.cookie,
      { bucket: bucket.slug, uid: "u1" },
      { data: videoOf({ width: 1920, height: 1080, fps: 25, seconds: 1 }), name: "tide.mp4", type: "video/mp4" },
    );
    expect(response.status).toBe(200);
    const [video] = (await response.json()) as Array<{ contentId: string }>;
    const still = async () =>
      (
        (await (await get(server.url, `/api/v1/buckets/video/content/${video!.contentId}/latest`, editor.cookie)).json()) as {
          still: string | null;
        }
      ).still;
    await expect.poll(still, { timeout: 60_000, interval: 200 }).not.toBeNull();
    const first = await createContent(server.db, bucket.id, {}, editor.user.id);
    const second = await saveVersion(server.db, {
      bucketId: bucket.id,
      contentId: first.contentId,
      baseVersionId: first.versionId,
      userId: editor.user.id,
      data: { clip: video!.contentId },
    });
    const compared = await page(
      server.url,
      `/b/${bucket.slug}/${first.contentId}/compare?a=${first.versionId}&b=${second.versionId}`,
      editor.cookie,
    );
    const thumbnail = /<img src="([^"]+)" alt="tide.mp4" class="diff-thumb"/.exec(compared.html)?.[1];
    expect(thumbnail && decode(thumbnail)).toBe(await still());
    const served = await get(server.url, decode(thumbnail!), editor.cookie);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toMatch(/^image\//);
  }, 90_000);
});

describe("restore", () => {
  it("saves the older version as a new latest version on top of the latest, keeps every version, and answers with the document's page", async () => {
    const { bucket, contentId, versions } = await documentWithHistory();
    const response = await restore(bucket.slug, contentId, { versionId: versions[0].versionId, base: versions[2].versionId });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/b/${bucket.slug}/${contentId}/latest?restored=1`);
    // The page it lands on names the version restored, as the history numbers it (not just "Saved").
    const landed = await page(server.url, response.headers.get("location")!, editor.cookie);
    expect(decode(landed.html)).toContain("Version 1 restored");
    expect(
      decode((await page(server.url, `/b/${bucket.slug}/${contentId}/latest?restored=1`, editor.cookie, { "Accept-Language": "nl" })).html),
    ).toContain("Versie 1 hersteld");
    const latest = await getLatestVersion(server.db, bucket.id, contentId);
    expect(latest!.data).toEqual(versions[0].data);
    expect(latest!.versionId).not.toBe(versions[0].versionId);
    expect(latest!.baseVersionId).toBe(versions[2].versionId);
    expect(await versionCount(contentId)).toBe(4);
    const listed = listedVersions((await page(server.url, `/b/${bucket.slug}/${contentId}/history`, editor.cookie)).html);
    expect(listed[0]![1]).toMatch(/^Version 4 latest .+ · Edna Editor · schema 1$/);
  });

  it("restores a singleton's version and answers with the singleton's page; its edit page has the panel", async () => {
    const bucket = await createTestBucket(server.db, {
      singleton: true,
      jsonSchema: { type: "object", properties: { welcome: { type: "string", title: "Welcome" } } },
    });
    const first = await createContent(server.db, bucket.id, { welcome: "Hello" }, editor.user.id, { singleton: true });
    const second = await saveVersion(server.db, {
      bucketId: bucket.id,
      contentId: first.contentId,
      baseVersionId: first.versionId,
      data: { welcome: "Hi" },
      userId: editor.user.id,
    });
    const edit = await page(server.url, `/b/${bucket.slug}/edit`, editor.cookie);
    expect(listedVersions(edit.html).map(([id]) => id)).toEqual([second.versionId, first.versionId]);
    const response = await restore(bucket.slug, first.contentId, { versionId: first.versionId, base: second.versionId });
    expect(response.headers.get("location")).toBe(`/b/${bucket.slug}/edit?restored=1`);
    expect((await getLatestVersion(server.db, bucket.id, first.contentId))!.data).toEqual({ welcome: "Hello" });
  });

  it("refuses a restore from a history someone has saved after (409, nothing saved), and sends a version that no longer fits the schema to its page", async () => {
    const { bucket, contentId, versions } = await documentWithHistory();
    const stale = await restore(bucket.slug, contentId, { versionId: versions[0].versionId, base: versions[1].versionId });
    expect(stale.status).toBe(409);
    expect(decode(await stale.text())).toContain("Someone saved this document after you opened its history, so nothing was restored.");
    expect(await versionCount(contentId)).toBe(3);

    // The schema now requires a field the first version lacks: restoring it opens it, where its errors show.
    await server.db.query("UPDATE buckets SET json_schema = $2 WHERE id = $1", [
      bucket.id,
      { ...schema(artists.collectionName), required: ["title", "year"] },
    ]);
    const invalid = await createContent(server.db, bucket.id, { title: { nl: "Zonder jaar", en: "No year" } }, editor.user.id);
    const withYear = await saveVersion(server.db, {
      bucketId: bucket.id,
      contentId: invalid.contentId,
      baseVersionId: invalid.versionId,
      data: { title: { nl: "a", en: "b" }, year: 2000 },
      userId: editor.user.id,
    });
    const refused = await restore(bucket.slug, invalid.contentId, { versionId: invalid.versionId, base: withYear.versionId });
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe(`/b/${bucket.slug}/${invalid.contentId}/${invalid.versionId}?restore=invalid`);
    expect(await versionCount(invalid.contentId)).toBe(2);
  });

  it("an older version's page saves on top of the latest (its button says 'Restore this version'), not as a conflict", async () => {
    const { bucket, contentId, versions } = await documentWithHistory();
    const older = await page(server.url, `/b/${bucket.slug}/${contentId}/${versions[0].versionId}`, editor.cookie);
    expect(inputValue(older.html, "__baseVersionId")).toBe(versions[2].versionId);
    expect(decode(older.html)).toMatch(/<button type="submit" class="button primary"[^>]*>Restore this version<\/button>/);
    const saved = await postForm(
      server.url,
      `/b/${bucket.slug}/${contentId}/${versions[0].versionId}`,
      {
        __contentId: contentId,
        __baseVersionId: versions[2].versionId,
        "title.nl": "Wad hersteld",
        "title.en": "Mudflats",
        year: "1911",
        "rooms[0].name": "East",
      },
      editor.cookie,
    );
    expect(saved.status).toBe(302);
    expect((await getLatestVersion(server.db, bucket.id, contentId))!.data).toMatchObject({
      title: { nl: "Wad hersteld" },
      year: 1911,
      rooms: [{ name: "East" }],
    });
    // The latest version's page says Save.
    expect(decode((await page(server.url, `/b/${bucket.slug}/${contentId}/latest`, editor.cookie)).html)).toMatch(/>Save<\/button>/);
  });
});

describe("guards", () => {
  it("answers 404 for another bucket's document, another document's version, unknown ids and a private bucket", async () => {
    const { bucket, contentId, versions } = await documentWithHistory();
    const other = await documentWithHistory();
    const notFound = async (path: string) => {
      const answer = await page(server.url, path, editor.cookie);
      expect(answer.status, path).toBe(404);
      expect(errorPage(answer.html)?.status, path).toBe("404");
    };
    await notFound(`/b/${other.bucket.slug}/${contentId}/history`);
    await notFound(`/b/${other.bucket.slug}/${contentId}/compare?a=${versions[0].versionId}&b=${versions[1].versionId}`);
    await notFound(`/b/${bucket.slug}/${contentId}/compare?a=${versions[0].versionId}&b=${other.versions[1].versionId}`);
    await notFound(`/b/${bucket.slug}/${contentId}/compare?a=${versions[0].versionId}&b=nonsense`);
    await notFound(`/b/${other.bucket.slug}/${contentId}/compare`);
    await notFound(`/b/${bucket.slug}/${contentId}/compare?a=${versions[0].versionId}`);
    await notFound(`/b/${bucket.slug}/not-a-uuid/history`);
    expect((await restore(other.bucket.slug, contentId, { versionId: versions[0].versionId, base: versions[2].versionId })).status).toBe(
      404,
    );
    expect((await restore(bucket.slug, contentId, { versionId: other.versions[0].versionId, base: versions[2].versionId })).status).toBe(
      404,
    );
    expect(await versionCount(contentId)).toBe(3);

    await server.db.query("UPDATE buckets SET private = true WHERE id = $1", [bucket.id]);
    await notFound(`/b/${bucket.slug}/${contentId}/history`);
    await notFound(`/b/${bucket.slug}/${contentId}/compare?a=${versions[0].versionId}&b=${versions[1].versionId}`);
    expect((await restore(bucket.slug, contentId, { versionId: versions[0].versionId, base: versions[2].versionId })).status).toBe(404);
    expect(await versionCount(contentId)).toBe(3);
  });

  it("a user without the bucket gets 404; signed out goes to the login; a cross-site restore is refused before any work", async () => {
    const { bucket, contentId, versions } = await documentWithHistory();
    const outsider = await signedInUser(server.url, server.db, { buckets: ["some-other-bucket"] });
    expect((await page(server.url, `/b/${bucket.slug}/${contentId}/history`, outsider.cookie)).status).toBe(404);
    expect(
      (await restore(bucket.slug, contentId, { versionId: versions[0].versionId, base: versions[2].versionId }, outsider.cookie)).status,
    ).toBe(404);
    const anonymous = await page(server.url, `/b/${bucket.slug}/${contentId}/history`);
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toMatch(/^\/login\?from_url=/);
    const crossSite = await postForm(
      server.url,
      `/b/${bucket.slug}/${contentId}/history`,
      { versionId: versions[0].versionId, base: versions[2].versionId },
      editor.cookie,
      {
        Origin: "https://evil.example",
      },
    );
    expect(crossSite.status).toBe(403);
    expect(await versionCount(contentId)).toBe(3);
  });
});
