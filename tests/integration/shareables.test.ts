import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createLogger } from "@server/logger";
import { createContent, deleteContent, saveVersion, type ContentVersion } from "@server/content/store";
import { createTestBucket, decode, errorPage, page, signedInUser, topBar } from "@tests/support/fixtures";
import { get, postForm } from "@tests/support/http";
import { pngOfSize, upload, videoOf } from "@tests/support/media-fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * Shareable previews (server/content/shareables.ts, app/routes/shareables/): an editor makes a read-only link to
 * a version of a document or its latest (POST /shareables, the link answered once; only its SHA-256 stored);
 * anyone holding it sees the document without a session, with its media through the link's own routes, until it
 * expires or is revoked; /shareables lists the user's links (an admin's: all) and revokes them. Dead links,
 * deleted documents, foreign media and cross-site posts are refused.
 */

let server: TestServer;
type Person = { user: { id: string; name: string }; cookie: string };
let editor: Person;
let colleague: Person;
let admin: Person;
let artists: Bucket;
/** The server's log lines, to show that tokens never reach them. */
const logged: string[] = [];

const schema = (artistsCollection: string) => ({
  type: "object",
  properties: {
    title: { type: "string", title: "Title", translate: true },
    year: { type: "integer", title: "Year" },
    artist: { type: "string", title: "Artist", _ref: artistsCollection },
    picture: { type: "string", title: "Picture", _ref: "b-image" },
  },
});

beforeAll(async () => {
  server = await startTestServer({ logger: createLogger("info", { write: (line: string) => void logged.push(line) }) });
  [editor, colleague, admin] = await Promise.all([
    signedInUser(server.url, server.db, { name: "Edna Editor" }),
    signedInUser(server.url, server.db, { name: "Colin Colleague" }),
    signedInUser(server.url, server.db, { name: "Ada Admin", permissions: ["user", "admin"] }),
  ]);
  artists = await createTestBucket(server.db, { jsonSchema: { type: "object", properties: { name: { type: "string", title: "Name" } } } });
});
afterAll(async () => {
  await server.stop();
});

/** A bucket of its own with a document of two versions. */
async function documentWithVersions() {
  const bucket = await createTestBucket(server.db, { jsonSchema: schema(artists.collectionName) });
  const artist = await createContent(server.db, artists.id, { name: "Mesdag" }, editor.user.id);
  const first = await createContent(
    server.db,
    bucket.id,
    { title: { nl: "Wad", en: "Mudflats" }, year: 1911, artist: artist.contentId },
    editor.user.id,
  );
  const second: ContentVersion = await saveVersion(server.db, {
    bucketId: bucket.id,
    contentId: first.contentId,
    baseVersionId: first.versionId,
    userId: editor.user.id,
    data: { title: { nl: "Wadden", en: "Mudflats" }, year: 1912, artist: artist.contentId },
  });
  return { bucket, contentId: first.contentId, first, second };
}

const share = (fields: Record<string, string>, cookie = editor.cookie, headers: Record<string, string> = {}) =>
  postForm(server.url, "/shareables", { intent: "create", expiry: "7", version: "latest", ...fields }, cookie, headers);

/** Makes a link and answers its token (from the answer's one showing of it) and the page's HTML. */
async function makeLink(fields: Record<string, string>, cookie = editor.cookie) {
  const response = await share(fields, cookie);
  const html = await response.text();
  expect(response.status, html.slice(0, 300)).toBe(201);
  const url = /data-shareable-link="true" value="([^"]+)"|value="([^"]+)"[^>]*data-shareable-link/.exec(html);
  const link = decode(url?.[1] ?? url?.[2] ?? "");
  const token = /\/shareables\/([A-Za-z0-9_-]+)$/.exec(link)?.[1];
  expect(token, link).toBeDefined();
  return { token: token!, html, link, response };
}

/** The shared page's fields: [data-field, the text of its label and value]. */
function sharedFields(html: string): Array<[string, string]> {
  return [...html.matchAll(/<div class="shared-field" data-field="([^"]+)">(.*?)<\/div>/gs)].map((match) => [
    match[1]!,
    decode(match[2]!.replace(/<[^>]+>/g, " "))
      .replace(/\s+/g, " ")
      .trim(),
  ]);
}

const row = async (token: string) =>
  (
    await server.db.query<{ id: string; expiresAt: Date }>(`SELECT id, expires_at AS "expiresAt" FROM shareables WHERE token_hash = $1`, [
      createHash("sha256").update(token).digest("base64url"),
    ])
  ).rows[0];

const listRows = (html: string) =>
  [...html.matchAll(/<tr data-shareable="([^"]+)" data-state="([^"]+)">(.*?)<\/tr>/gs)].map((match) => ({
    id: match[1]!,
    state: match[2]!,
    text: decode(match[3]!.replace(/<[^>]+>/g, " "))
      .replace(/\s+/g, " ")
      .trim(),
  }));

describe("making a link", () => {
  it("answers the link once, stores only its hash, and shows the document read-only to anyone without a session", async () => {
    const { bucket, contentId } = await documentWithVersions();
    const { token, html, link, response } = await makeLink({ bucket: bucket.slug, contentId });
    expect(link).toBe(`${server.url}/shareables/${token}`);
    expect(Buffer.from(token, "base64url").length).toBeGreaterThanOrEqual(32);
    expect(response.headers.get("location")).toBeNull();
    expect(decode(html)).toContain("it is shown only this once");
    // The table keeps the token's SHA-256, never the token.
    const stored = await server.db.query("SELECT * FROM shareables WHERE content_id = $1", [contentId]);
    expect(stored.rows).toHaveLength(1);
    expect(JSON.stringify(stored.rows[0])).not.toContain(token);
    expect(await row(token)).toBeDefined();
    const expiresIn = (await row(token))!.expiresAt.getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(6.9 * 86_400_000);
    expect(expiresIn).toBeLessThanOrEqual(7 * 86_400_000);

    const shared = await page(server.url, `/shareables/${token}`);
    expect(shared.status).toBe(200);
    expect(shared.response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(shared.response.headers.get("x-robots-tag")).toMatch(/noindex/);
    expect(shared.response.headers.get("cache-control")).toBe("private, no-store");
    expect(sharedFields(shared.html)).toEqual([
      ["title.nl", "Title › NL Wadden"],
      ["title.en", "Title › EN Mudflats"],
      ["year", "Year 1912"],
      ["artist", "Artist Mesdag"],
    ]);
    // Nothing else of the product: no bucket links, no user menu, no link into the product.
    for (const viewer of [undefined, colleague.cookie]) {
      const seen = await page(server.url, `/shareables/${token}`, viewer);
      const bar = topBar(seen.html);
      expect(bar).not.toContain("bucket-links");
      expect(bar).not.toContain("user-menu");
      expect(bar).not.toContain('href="/"');
      expect(seen.html).not.toContain(`/b/${bucket.slug}`);
    }
  });

  it("a link to one version keeps showing it after later saves; a link to the latest follows them", async () => {
    const { bucket, contentId, first, second } = await documentWithVersions();
    const pinned = await makeLink({ bucket: bucket.slug, contentId, version: first.versionId });
    const latest = await makeLink({ bucket: bucket.slug, contentId, version: "latest" });
    await saveVersion(server.db, {
      bucketId: bucket.id,
      contentId,
      baseVersionId: second.versionId,
      userId: editor.user.id,
      data: { title: { nl: "Waddenzee", en: "Wadden Sea" }, year: 1913 },
    });
    const old = await page(server.url, `/shareables/${pinned.token}`);
    expect(sharedFields(old.html).find(([name]) => name === "title.nl")?.[1]).toBe("Title › NL Wad");
    expect(decode(old.html)).toContain("Version 1");
    const now = await page(server.url, `/shareables/${latest.token}`);
    expect(sharedFields(now.html).find(([name]) => name === "title.nl")?.[1]).toBe("Title › NL Waddenzee");
    expect(decode(now.html)).toContain("Latest version (version 3)");
  });

  it("shows what a reader expects: a disableable value under its label (a disabled one left out), dates in the reader's language", async () => {
    const bucket = await createTestBucket(server.db, {
      jsonSchema: {
        type: "object",
        properties: {
          banner: { type: "object", title: "Banner", "x-disableable-bool": true },
          notice: { type: "object", title: "Notice", "x-disableable-bool": true },
          opens: { type: "string", format: "date", title: "Opens" },
        },
      },
    });
    const content = await createContent(
      server.db,
      bucket.id,
      {
        banner: { value: "Closed on Mondays", disabled: false },
        notice: { value: "Secret", disabled: true },
        opens: "2026-03-01",
      },
      editor.user.id,
    );
    const { token } = await makeLink({ bucket: bucket.slug, contentId: content.contentId });
    const english = await page(server.url, `/shareables/${token}`, undefined, { "Accept-Language": "en" });
    expect(sharedFields(english.html)).toEqual([
      ["banner", "Banner Closed on Mondays"],
      ["opens", "Opens Mar 1, 2026"],
    ]);
    expect(english.html).not.toContain("Secret");
    const dutch = await page(server.url, `/shareables/${token}`, undefined, { "Accept-Language": "nl-NL,nl;q=0.9" });
    expect(sharedFields(dutch.html)).toEqual([
      ["banner", "Banner Closed on Mondays"],
      ["opens", "Opens 1 mrt 2026"],
    ]);
  });

  it("takes a date up to 90 days ahead and refuses a past or later one, and a wrong choice", async () => {
    const { bucket, contentId } = await documentWithVersions();
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const dated = await makeLink({ bucket: bucket.slug, contentId, expiry: "date", expiresOn: day(89) });
    expect((await row(dated.token))!.expiresAt.toISOString()).toBe(`${day(89)}T23:59:59.999Z`);
    for (const [fields, message] of [
      [{ expiry: "date", expiresOn: day(-1) }, "The date is in the past."],
      [{ expiry: "date", expiresOn: day(120) }, "A link may last 90 days at most."],
      [{ expiry: "date", expiresOn: "" }, "Choose a date."],
      [{ expiry: "365" }, "Choose when the link expires."],
      [{ version: "nope" }, "Choose which version to share."],
    ] as const) {
      const response = await share({ bucket: bucket.slug, contentId, ...fields });
      expect(response.status, message).toBe(400);
      expect(decode(await response.text())).toContain(message);
    }
    expect((await server.db.query("SELECT id FROM shareables WHERE content_id = $1", [contentId])).rows).toHaveLength(1);
  });

  it("needs a signed-in user who sees the bucket and a document (or version) of it; a cross-site post is refused", async () => {
    const { bucket, contentId } = await documentWithVersions();
    const other = await documentWithVersions();
    const anonymous = await share({ bucket: bucket.slug, contentId }, "");
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toMatch(/^\/login/);
    expect((await page(server.url, "/shareables")).location).toMatch(/^\/login\?from_url=%2Fshareables/);
    const outsider = await signedInUser(server.url, server.db, { buckets: ["some-other-bucket"] });
    expect((await share({ bucket: bucket.slug, contentId }, outsider.cookie)).status).toBe(404);
    expect((await share({ bucket: bucket.slug, contentId: other.contentId })).status).toBe(404);
    expect((await share({ bucket: bucket.slug, contentId, version: other.first.versionId })).status).toBe(404);
    const crossSite = await share({ bucket: bucket.slug, contentId }, editor.cookie, { Origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    expect((await server.db.query("SELECT id FROM shareables WHERE content_id = $1", [contentId])).rows).toHaveLength(0);
  });

  it("is offered on the edit page as a plain form posting to /shareables", async () => {
    const { bucket, contentId, first } = await documentWithVersions();
    const latest = await page(server.url, `/b/${bucket.slug}/${contentId}/latest`, editor.cookie);
    expect(latest.html).toMatch(/<details class="share-panel"/);
    const form = /<form class="share-form"[^>]*>/.exec(latest.html)?.[0] ?? "";
    expect(form).toContain('action="/shareables"');
    expect(form).toContain('method="post"');
    expect(latest.html).toMatch(/<input type="radio" name="version" checked="" value="latest"/);
    const older = await page(server.url, `/b/${bucket.slug}/${contentId}/${first.versionId}`, editor.cookie);
    expect(older.html).toMatch(new RegExp(`<input type="radio" name="version" checked="" value="${first.versionId}"`));
  });
});

describe("the log", () => {
  it("never holds a link's token: its pages and media are logged as /shareables/[token]", async () => {
    const { bucket, contentId } = await documentWithVersions();
    const { token } = await makeLink({ bucket: bucket.slug, contentId });
    await page(server.url, `/shareables/${token}`);
    await get(server.url, `/shareables/${token}/media/${contentId}`);
    await expect.poll(() => logged.filter((line) => line.includes('"path":"/shareables/[token]"')).length).toBeGreaterThanOrEqual(2);
    expect(logged.join("\n")).not.toContain(token);
  });
});

describe("dead links", () => {
  const notFound = async (path: string) => {
    const answer = await page(server.url, path);
    expect(answer.status, path).toBe(404);
    expect(errorPage(answer.html), path).toEqual({ status: "404", message: "This page could not be found" });
    return answer;
  };

  it("an unknown or malformed token is the 404 page of any unknown route, without a referrer", async () => {
    const unknown = await notFound(`/shareables/${Buffer.alloc(32, 7).toString("base64url")}`);
    expect(unknown.response.headers.get("referrer-policy")).toBe("no-referrer");
    await notFound("/shareables/abc");
    await notFound("/shareables/%E2%9C%93");
    expect(errorPage((await page(server.url, "/nope")).html)).toEqual(errorPage(unknown.html));
  });

  it("an expired link answers 404 and is listed as expired", async () => {
    const { bucket, contentId } = await documentWithVersions();
    const { token } = await makeLink({ bucket: bucket.slug, contentId });
    const { id } = (await row(token))!;
    await server.db.query("UPDATE shareables SET expires_at = now() - interval '1 minute' WHERE id = $1", [id]);
    await notFound(`/shareables/${token}`);
    const list = listRows((await page(server.url, "/shareables", editor.cookie)).html);
    expect(list.find((item) => item.id === id)?.state).toBe("expired");
  });

  it("a deleted document's link answers 404", async () => {
    const { bucket, contentId, second } = await documentWithVersions();
    const { token } = await makeLink({ bucket: bucket.slug, contentId });
    await deleteContent(server.db, bucket.id, contentId, second.versionId);
    await notFound(`/shareables/${token}`);
  });

  it("a link stops working when its maker no longer sees the bucket", async () => {
    const { bucket, contentId } = await documentWithVersions();
    const maker = await signedInUser(server.url, server.db, { buckets: [bucket.slug] });
    const { token } = await makeLink({ bucket: bucket.slug, contentId }, maker.cookie);
    expect((await page(server.url, `/shareables/${token}`)).status).toBe(200);
    await server.db.query("UPDATE users SET buckets = '{elsewhere}' WHERE id = $1", [maker.user.id]);
    await notFound(`/shareables/${token}`);
  });
});

describe("/shareables", () => {
  it("lists the user's own links with document, bucket, version and state; an admin sees everyone's; a bucket out of sight is hidden", async () => {
    const { bucket, contentId, first } = await documentWithVersions();
    const mine = await makeLink({ bucket: bucket.slug, contentId, version: first.versionId });
    const theirs = await makeLink({ bucket: bucket.slug, contentId }, colleague.cookie);
    const [mineId, theirsId] = [(await row(mine.token))!.id, (await row(theirs.token))!.id];
    const list = await page(server.url, "/shareables", editor.cookie);
    expect(list.status).toBe(200);
    expect(list.html).toContain('<header class="top-bar">');
    const rows = listRows(list.html);
    expect(rows.map((item) => item.id)).toContain(mineId);
    expect(rows.map((item) => item.id)).not.toContain(theirsId);
    const listed = rows.find((item) => item.id === mineId)!;
    expect(listed.state).toBe("active");
    expect(listed.text).toContain("Wadden");
    expect(listed.text).toContain(bucket.name);
    expect(listed.text).toContain("Version 1");
    expect(listed.text).toContain("Active");
    // The token is never shown again.
    expect(list.html).not.toContain(mine.token);
    const adminRows = listRows((await page(server.url, "/shareables", admin.cookie)).html);
    expect(adminRows.map((item) => item.id)).toEqual(expect.arrayContaining([mineId, theirsId]));
    expect(adminRows.find((item) => item.id === theirsId)!.text).toContain("Always the latest");
    expect(adminRows.find((item) => item.id === theirsId)!.text).toContain("Colin Colleague");
    // A maker who loses the bucket no longer sees the link.
    const limited = await signedInUser(server.url, server.db, { buckets: [bucket.slug] });
    const limitedLink = await makeLink({ bucket: bucket.slug, contentId }, limited.cookie);
    const limitedId = (await row(limitedLink.token))!.id;
    expect(listRows((await page(server.url, "/shareables", limited.cookie)).html).map((item) => item.id)).toContain(limitedId);
    await server.db.query("UPDATE users SET buckets = '{elsewhere}' WHERE id = $1", [limited.user.id]);
    expect(listRows((await page(server.url, "/shareables", limited.cookie)).html).map((item) => item.id)).not.toContain(limitedId);
  });

  it("revokes after a confirmation, at once; not another editor's link (an admin may); a cross-site revoke is refused", async () => {
    const { bucket, contentId } = await documentWithVersions();
    const { token } = await makeLink({ bucket: bucket.slug, contentId });
    const { id } = (await row(token))!;
    const confirm = await page(server.url, `/shareables?revoke=${id}`, editor.cookie);
    expect(confirm.html).toContain('role="alertdialog"');
    expect(confirm.html).toMatch(new RegExp(`<input type="hidden" name="id" value="${id}"/>`));
    // Another editor neither sees the confirmation nor may revoke.
    expect((await page(server.url, `/shareables?revoke=${id}`, colleague.cookie)).html).not.toContain('role="alertdialog"');
    expect((await postForm(server.url, "/shareables", { intent: "revoke", id }, colleague.cookie)).status).toBe(404);
    const crossSite = await postForm(server.url, "/shareables", { intent: "revoke", id }, editor.cookie, {
      Origin: "https://evil.example",
    });
    expect(crossSite.status).toBe(403);
    expect((await page(server.url, `/shareables/${token}`)).status).toBe(200);

    const revoked = await postForm(server.url, "/shareables", { intent: "revoke", id }, editor.cookie);
    expect(revoked.status).toBe(302);
    expect(revoked.headers.get("location")).toBe(`/shareables?revoked=${id}`);
    expect((await page(server.url, `/shareables/${token}`)).status).toBe(404);
    const after = await page(server.url, `/shareables?revoked=${id}`, editor.cookie);
    expect(decode(after.html)).toContain("is revoked");
    expect(listRows(after.html).find((item) => item.id === id)?.state).toBe("revoked");
    // Revoked already: nothing to do.
    expect((await postForm(server.url, "/shareables", { intent: "revoke", id }, editor.cookie)).status).toBe(404);

    const another = await makeLink({ bucket: bucket.slug, contentId }, colleague.cookie);
    const anotherId = (await row(another.token))!.id;
    expect((await postForm(server.url, "/shareables", { intent: "revoke", id: anotherId }, admin.cookie)).status).toBe(302);
    expect((await page(server.url, `/shareables/${another.token}`)).status).toBe(404);
  });
});

describe("media through the link", () => {
  it("serves the shared version's media to anyone holding the link, and nothing else", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: schema(artists.collectionName) });
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
    const [picture, elsewhere] = [await uploadImage("dunes.png"), await uploadImage("other.png")];
    const document = await createContent(server.db, bucket.id, { title: { nl: "Duinen", en: "Dunes" }, picture }, editor.user.id);
    const { token } = await makeLink({ bucket: bucket.slug, contentId: document.contentId });
    const shared = await page(server.url, `/shareables/${token}`);
    const src = /<img src="([^"]+)" alt="dunes.png" class="shared-image"/.exec(shared.html)?.[1];
    expect(src).toBe(`/shareables/${token}/media/${picture}`);
    const image = await get(server.url, src!);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(image.headers.get("referrer-policy")).toBe("no-referrer");
    expect(image.headers.get("cache-control")).toBe("private, no-store");
    expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(0);
    // Media the document does not name, a poster of an image, and the general media routes stay closed.
    expect((await get(server.url, `/shareables/${token}/media/${elsewhere}`)).status).toBe(404);
    expect((await get(server.url, `/shareables/${token}/media/${picture}/poster`)).status).toBe(404);
    expect((await get(server.url, `/shareables/${Buffer.alloc(32, 1).toString("base64url")}/media/${picture}`)).status).toBe(404);
    expect((await get(server.url, `/api/v1/media/image/${picture}`)).status).toBe(401);
    // Described in the library: the page reads its alternative text in its language, and shows caption and credits.
    await server.db.query(`UPDATE media_items SET descriptions = $2::jsonb, credits = '© Museum' WHERE content_id = $1`, [
      picture,
      JSON.stringify({ alt: { en: "Dunes under a grey sky", nl: "Duinen onder een grijze lucht" }, caption: { en: "The dunes, 1912" } }),
    ]);
    const described = await page(server.url, `/shareables/${token}`);
    expect(described.html).toContain(`alt="Dunes under a grey sky" class="shared-image"`);
    expect(decode(described.html)).toContain("<figcaption>The dunes, 1912 · © Museum</figcaption>");
    const dutch = await page(server.url, `/shareables/${token}`, undefined, { "Accept-Language": "nl" });
    expect(dutch.html).toContain(`alt="Duinen onder een grijze lucht"`);
    // Revoked: its media go with it.
    const { id } = (await row(token))!;
    expect((await postForm(server.url, "/shareables", { intent: "revoke", id }, editor.cookie)).status).toBe(302);
    expect((await get(server.url, src!)).status).toBe(404);
  });

  it("plays a shared video with its chosen still as the poster", async () => {
    const bucket = await createTestBucket(server.db, {
      jsonSchema: {
        type: "object",
        properties: { title: { type: "string", title: "Title" }, clip: { type: "string", title: "Clip", _ref: "b-video" } },
      },
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
    const document = await createContent(server.db, bucket.id, { title: "Tide", clip: video!.contentId }, editor.user.id);
    const { token } = await makeLink({ bucket: bucket.slug, contentId: document.contentId });
    const shared = await page(server.url, `/shareables/${token}`);
    const tag = /<video[^>]*class="shared-video"[^>]*>/.exec(shared.html)?.[0] ?? "";
    expect(tag).toContain(`src="/shareables/${token}/media/${video!.contentId}"`);
    expect(tag).toContain(`poster="/shareables/${token}/media/${video!.contentId}/poster"`);
    const poster = await get(server.url, `/shareables/${token}/media/${video!.contentId}/poster`);
    expect(poster.status).toBe(200);
    expect(poster.headers.get("content-type")).toMatch(/^image\//);
    const played = await get(server.url, `/shareables/${token}/media/${video!.contentId}`, undefined, { Range: "bytes=0-99" });
    expect(played.status).toBe(206);
    expect(played.headers.get("content-type")).toMatch(/^video\//);
  }, 90_000);
});
