import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent, getLatestVersion } from "@server/content/store";
import { BASE_VERSION_FIELD, CONTENT_ID_FIELD } from "@core/form/resolve";
import { createTestBucket, errorPage, page, signedInUser } from "@tests/support/fixtures";
import { fieldErrorText, formErrorText, get, postForm } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The trend screen (/trend/{bucket}/new, /trend/{bucket}/{contentId}/{latest|versionId}, docs/screens.md): the
 * guards of the generic editor, related trends saved in order and validated, a trend never related to itself, the
 * no-JavaScript list buttons (reorder, add), a version conflict, and the documents that use the trend beside it,
 * linked on their own screens, those in buckets the user may not see only counted.
 */

let server: TestServer;
let editor: string;
let restricted: string;
let trends: Bucket;
let hiddenTrends: Bucket;
let generic: Bucket;
let talks: Bucket;
let sessions: Bucket;
let secretTalks: Bucket;
const ids = {} as Record<"light" | "craft" | "green" | "sea" | "talk" | "session" | "secretTalk" | "plain" | "hidden", string>;

const NOT_FOUND = "This page could not be found";
const SELF = "A trend cannot be related to itself: remove it from this list.";
// Both saved the same fields: the merge asks which to keep (server/content/merge-save.ts).
const CONFLICT = "saved this document while you were editing it.";
const stamp = Date.now().toString(36);

const trendSchema = (collection: string) => ({
  type: "object",
  required: ["title"],
  properties: {
    title: { type: "string", title: "Title", translate: true, maxLength: 60 },
    summary: { type: "string", title: "Summary", renderer: "textarea", translate: true },
    related: {
      type: "array",
      title: "Related trends",
      renderer: "trend-select",
      maxItems: 3,
      uniqueItems: true,
      items: { type: "string", _ref: collection },
    },
  },
});

const referrerSchema = (collection: string, extra: Record<string, unknown> = {}) => ({
  type: "object",
  required: ["title"],
  properties: {
    title: { type: "string", title: "Title" },
    trend: { type: "string", title: "Trend", _ref: collection, renderer: "trend-select" },
    ...extra,
  },
});

const contentCount = async (bucket: Bucket) =>
  (await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM contents WHERE bucket_id = $1", [bucket.id])).rows[0]!
    .count;
const versionCount = async (contentId: string) =>
  (await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM versions WHERE content_id = $1", [contentId])).rows[0]!
    .count;
const latest = async (bucket: Bucket, contentId: string) => (await getLatestVersion(server.db, bucket.id, contentId))!;

/** The trends a page's related list shows, in order (each card carries its trend's contentId). */
const shownRelated = (html: string) => [...html.matchAll(/<li class="trend-card" data-trend="([^"]*)"/g)].map((match) => match[1]);

/** The form of a trend as the edit page posts it. */
function trendForm(title: string, related: string[], ids: { contentId?: string; base?: string } = {}): Record<string, string> {
  const fields: Record<string, string> = {
    [CONTENT_ID_FIELD]: ids.contentId ?? "",
    [BASE_VERSION_FIELD]: ids.base ?? "",
    "title.nl": title,
    "title.en": `${title} (en)`,
  };
  related.forEach((id, index) => (fields[`related[${index}]`] = id));
  return fields;
}

beforeAll(async () => {
  server = await startTestServer();
  editor = (await signedInUser(server.url, server.db, { permissions: ["user"] })).cookie;
  const collection = `trends-${stamp}`;
  trends = await createTestBucket(server.db, { slug: collection, name: "Trends", screen: "trend", jsonSchema: trendSchema(collection) });
  hiddenTrends = await createTestBucket(server.db, {
    slug: `hidden-trends-${stamp}`,
    name: "Hidden trends",
    screen: "trend",
    private: true,
    jsonSchema: trendSchema(`hidden-trends-${stamp}`),
  });
  generic = await createTestBucket(server.db, { slug: `plain-${stamp}`, name: "Plain" });
  talks = await createTestBucket(server.db, { slug: `talks-${stamp}`, name: "Talks", jsonSchema: referrerSchema(collection) });
  sessions = await createTestBucket(server.db, {
    slug: `sessions-${stamp}`,
    name: "Sessions",
    screen: "sessies",
    jsonSchema: referrerSchema(collection, {
      cases: { type: "array", title: "Cases", renderer: "video-cases", items: { type: "string", _ref: `cases-${stamp}` } },
    }),
  });
  secretTalks = await createTestBucket(server.db, {
    slug: `secret-talks-${stamp}`,
    name: "Secret talks",
    private: true,
    jsonSchema: referrerSchema(collection),
  });
  restricted = (await signedInUser(server.url, server.db, { permissions: ["user"], buckets: [trends.slug, sessions.slug] })).cookie;

  const doc = async (bucket: Bucket, data: Record<string, unknown>) => (await createContent(server.db, bucket.id, data, null)).contentId;
  ids.craft = await doc(trends, { title: { nl: "Ambacht", en: "Craft revival" } });
  ids.green = await doc(trends, { title: { nl: "Groene steden", en: "Green cities" } });
  ids.sea = await doc(trends, { title: { nl: "Stille zee", en: "Quiet sea" } });
  ids.light = await doc(trends, { title: { nl: "Licht en water", en: "Light and water" }, related: [ids.green, ids.craft] });
  ids.talk = await doc(talks, { title: "Morning talk", trend: ids.light });
  ids.session = await doc(sessions, { title: "Coast session", trend: ids.light, cases: [] });
  ids.secretTalk = await doc(secretTalks, { title: "Board meeting", trend: ids.light });
  ids.plain = await doc(generic, { title: "Plain document" });
  ids.hidden = await doc(hiddenTrends, { title: { nl: "Geheim", en: "Secret" } });
});
afterAll(async () => {
  await server.stop();
});

describe("the trend screen's guards", () => {
  const pages = () => [`/trend/${trends.slug}/new`, `/trend/${trends.slug}/${ids.light}/latest`];

  it("sends an anonymous visitor to /login and a user without the user permission to /no-access", async () => {
    const noUser = (await signedInUser(server.url, server.db, { permissions: [] })).cookie;
    for (const path of pages()) {
      const anonymous = await get(server.url, path);
      expect(anonymous.status, path).toBe(302);
      expect(anonymous.headers.get("location"), path).toBe(`/login?from_url=${encodeURIComponent(path)}`);
      const refused = await get(server.url, path, noUser);
      expect(refused.status, path).toBe(302);
      expect(refused.headers.get("location"), path).toBe("/no-access");
    }
  });

  it("answers 404 for a bucket of another screen, a private bucket and one left out of the user's list, GET and POST, writing nothing", async () => {
    const refusedPages = [
      [editor, `/trend/${generic.slug}/new`, generic],
      [editor, `/trend/${generic.slug}/${ids.plain}/latest`, generic],
      [editor, `/trend/${hiddenTrends.slug}/new`, hiddenTrends],
      [editor, `/trend/${hiddenTrends.slug}/${ids.hidden}/latest`, hiddenTrends],
      [restricted, `/trend/${talks.slug}/new`, talks],
    ] as const;
    for (const [cookie, path, bucket] of refusedPages) {
      const shown = await page(server.url, path, cookie);
      expect(shown.status, path).toBe(404);
      expect(errorPage(shown.html), path).toEqual({ status: "404", message: NOT_FOUND });
      const before = await contentCount(bucket);
      const posted = await postForm(server.url, path, { ...trendForm("Sneaked in", []), title: "Sneaked in" }, cookie);
      expect(posted.status, path).toBe(404);
      expect(await contentCount(bucket), path).toBe(before);
    }
    expect(await versionCount(ids.plain)).toBe(1);
  });

  it("refuses a cross-site post (CSRF) before any work", async () => {
    const before = await contentCount(trends);
    const response = await postForm(server.url, `/trend/${trends.slug}/new`, trendForm("Cross-site", []), editor, {
      Origin: "https://evil.example",
    });
    expect(response.status).toBe(403);
    expect(await contentCount(trends)).toBe(before);
  });
});

describe("the trend screen's page", () => {
  it("shows the related trends in order and the documents that use the trend, linked on their own screens", async () => {
    const { status, html } = await page(server.url, `/trend/${trends.slug}/${ids.light}/latest`, editor);
    expect(status).toBe(200);
    expect(html).toContain('class="bucket-edit trend-screen"');
    expect(shownRelated(html)).toEqual([ids.green, ids.craft]);
    // Without JavaScript the add select offers the other trends: never the trend itself, nor those already chosen.
    const select = /<select[^>]*name="__trend_add:related"[^>]*>([\s\S]*?)<\/select>/.exec(html)?.[1] ?? "";
    expect(select).toContain("Pick an option");
    // A trend never published says so after its title (docs/publishing.md); the chosen ones carry its badge.
    expect(select).toContain(`value="${ids.sea}">Stille zee (Draft)</option>`);
    expect(html).toMatch(
      /<span class="trend-card-name"><span class="trend-card-title">[^<]*<\/span><span class="publication-badge publication-draft"[^>]*>Draft<\/span>/,
    );
    expect(select).not.toContain(ids.light);
    expect(select).not.toContain(ids.green);
    const aside = /<aside class="screen-aside">([\s\S]*?)<\/aside>/.exec(html)?.[1] ?? "";
    expect(aside).toContain(`href="/b/${talks.slug}/${ids.talk}/latest"`);
    expect(aside).toContain(`href="/sessies/${sessions.slug}/${ids.session}/latest"`);
    expect(aside).toContain("Morning talk");
    expect(aside).toContain("Coast session");
    expect(aside).not.toContain("Board meeting");
    expect(aside).not.toContain(ids.secretTalk);
    expect(aside).toContain("3 documents refer to this trend");
    expect(aside).toContain("…and 1 document in a bucket you cannot see.");
  });

  it("counts only the referrers a user may not see: a restricted user gets no link to a bucket outside their list", async () => {
    const { html } = await page(server.url, `/trend/${trends.slug}/${ids.light}/latest`, restricted);
    const aside = /<aside class="screen-aside">([\s\S]*?)<\/aside>/.exec(html)?.[1] ?? "";
    expect(aside).toContain(`href="/sessies/${sessions.slug}/${ids.session}/latest"`);
    expect(aside).not.toContain(ids.talk);
    expect(aside).not.toContain("Morning talk");
    expect(aside).toContain("…and 2 documents in buckets you cannot see.");
    // Another trend names this one too: it is listed as a trend.
    const craft = await page(server.url, `/trend/${trends.slug}/${ids.craft}/latest`, restricted);
    expect(craft.html).toContain(`href="/trend/${trends.slug}/${ids.light}/latest"`);
  });

  it("says on a new trend that the list fills once it is saved", async () => {
    const { status, html } = await page(server.url, `/trend/${trends.slug}/new`, editor);
    expect(status).toBe(200);
    expect(html).toContain("Once the trend is saved, this shows which sessions and documents use it.");
    expect(html).toContain('name="__trend_add:related"');
  });
});

describe("the trend screen's saves", () => {
  it("creates a trend with its related trends in order and shows it on the trend screen", async () => {
    const response = await postForm(server.url, `/trend/${trends.slug}/new`, trendForm("Zee", [ids.craft, ids.light]), editor);
    expect(response.status).toBe(302);
    const location = response.headers.get("location") ?? "";
    const match = new RegExp(`^/trend/${trends.slug}/([0-9a-f-]{36})/latest\\?saved$`).exec(location);
    expect(match, location).not.toBeNull();
    const saved = await latest(trends, match![1]!);
    expect(saved.data).toEqual({ title: { nl: "Zee", en: "Zee (en)" }, related: [ids.craft, ids.light] });
  });

  it("validates the list (too many trends) and keeps the input, writing nothing", async () => {
    const before = await contentCount(trends);
    const response = await postForm(
      server.url,
      `/trend/${trends.slug}/new`,
      trendForm("Te veel", [ids.craft, ids.light, ids.green, ids.craft]),
      editor,
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(fieldErrorText(html, "related")).toBeTruthy();
    expect(shownRelated(html)).toEqual([ids.craft, ids.light, ids.green, ids.craft]);
    expect(await contentCount(trends)).toBe(before);
  });

  it("refuses a trend related to itself with the message under the list, keeping the input", async () => {
    const own = await createContent(server.db, trends.id, { title: { nl: "Eigen", en: "Own" } }, null);
    const response = await postForm(
      server.url,
      `/trend/${trends.slug}/${own.contentId}/latest`,
      trendForm("Eigen", [ids.craft, own.contentId], { contentId: own.contentId, base: own.versionId }),
      editor,
    );
    expect(response.status).toBe(422);
    const html = await response.text();
    expect(fieldErrorText(html, "related")).toBe(SELF);
    expect(shownRelated(html)).toEqual([ids.craft, own.contentId]);
    expect(await versionCount(own.contentId)).toBe(1);
  });

  it("reorders and adds without JavaScript: the buttons re-render the form with the list changed, saving nothing", async () => {
    const own = await createContent(server.db, trends.id, { title: { nl: "Volgorde", en: "Order" }, related: [ids.craft] }, null);
    const path = `/trend/${trends.slug}/${own.contentId}/latest`;
    const base = { contentId: own.contentId, base: own.versionId };
    // 'Add': the select's trend joins the end of the list; Conform's validate intent shows it there.
    const validate = JSON.stringify({ type: "validate", payload: { name: "related" } });
    const added = await postForm(
      server.url,
      path,
      { ...trendForm("Volgorde", [ids.craft], base), "__trend_add:related": ids.light, __intent__: validate },
      editor,
    );
    expect(added.status).toBe(200);
    const addedHtml = await added.text();
    expect(shownRelated(addedHtml)).toEqual([ids.craft, ids.light]);
    expect(addedHtml).toContain('value="Volgorde"');
    // Left on 'Pick an option', or naming a trend already chosen, it adds nothing.
    const nothing = await postForm(
      server.url,
      path,
      { ...trendForm("Volgorde", [ids.craft], base), "__trend_add:related": "", __intent__: validate },
      editor,
    );
    expect(shownRelated(await nothing.text())).toEqual([ids.craft]);
    const twice = await postForm(
      server.url,
      path,
      { ...trendForm("Volgorde", [ids.craft], base), "__trend_add:related": ids.craft, __intent__: validate },
      editor,
    );
    expect(shownRelated(await twice.text())).toEqual([ids.craft]);
    // ↑ on the second row.
    const moved = await postForm(
      server.url,
      path,
      {
        ...trendForm("Volgorde", [ids.craft, ids.light], base),
        __intent__: JSON.stringify({ type: "reorder", payload: { name: "related", from: 1, to: 0 } }),
      },
      editor,
    );
    expect(moved.status).toBe(200);
    expect(shownRelated(await moved.text())).toEqual([ids.light, ids.craft]);
    expect(await versionCount(own.contentId)).toBe(1);
    // Save: the order as shown, with a trend chosen in the add select and not added first.
    const saved = await postForm(
      server.url,
      path,
      { ...trendForm("Volgorde", [ids.light, ids.craft], base), "__trend_add:related": ids.green },
      editor,
    );
    expect(saved.status).toBe(302);
    expect((await latest(trends, own.contentId)).data.related).toEqual([ids.light, ids.craft, ids.green]);
  });

  it("keeps the base version through a re-rendered post: a save after someone else's is still a conflict", async () => {
    const own = await createContent(server.db, trends.id, { title: { nl: "Basis", en: "Base" } }, null);
    const path = `/trend/${trends.slug}/${own.contentId}/latest`;
    const base = { contentId: own.contentId, base: own.versionId };
    expect((await postForm(server.url, path, trendForm("Iemand anders", [], base), editor)).status).toBe(302);
    const moved = await postForm(
      server.url,
      path,
      {
        ...trendForm("Ik", [ids.craft, ids.green], base),
        __intent__: JSON.stringify({ type: "reorder", payload: { name: "related", from: 1, to: 0 } }),
      },
      editor,
    );
    expect(moved.status).toBe(200);
    expect(/<input type="hidden" name="__baseVersionId" value="([^"]*)"/.exec(await moved.text())?.[1]).toBe(own.versionId);
  });

  it("answers a second save on the same base with the conflict message, the input kept", async () => {
    const own = await createContent(server.db, trends.id, { title: { nl: "Conflict", en: "Conflict" } }, null);
    const path = `/trend/${trends.slug}/${own.contentId}/latest`;
    const base = { contentId: own.contentId, base: own.versionId };
    expect((await postForm(server.url, path, trendForm("Eerste", [ids.craft], base), editor)).status).toBe(302);
    const second = await postForm(server.url, path, trendForm("Tweede", [ids.green], base), editor);
    expect(second.status).toBe(409);
    const html = await second.text();
    expect(formErrorText(html)).toContain(CONFLICT);
    expect(html).toContain('value="Tweede"');
    expect(shownRelated(html)).toEqual([ids.green]);
    expect((await latest(trends, own.contentId)).data).toEqual({ title: { nl: "Eerste", en: "Eerste (en)" }, related: [ids.craft] });
  });
});

describe("a bucket whose screen is not in the screens' table", () => {
  // A screen's folder removed while its buckets stay (the database no longer checks the name: migration 045).
  it("opens in the generic editor: its overview, a new document and a stored one", async () => {
    const bucket = await createTestBucket(server.db, { slug: `gallery-${stamp}`, name: "Gallery", screen: "gallery" });
    const contentId = (await createContent(server.db, bucket.id, { title: "Left behind" }, null)).contentId;
    for (const path of [`/b/${bucket.slug}`, `/b/${bucket.slug}/new`, `/b/${bucket.slug}/${contentId}/latest`]) {
      const response = await get(server.url, path, editor);
      expect(response.status, path).toBe(200);
      await response.text();
    }
    const overview = (await page(server.url, `/b/${bucket.slug}`, editor)).html;
    expect(overview).toContain(`href="/b/${bucket.slug}/${contentId}/latest"`);
    expect((await get(server.url, `/gallery/${bucket.slug}/new`, editor)).status).toBe(404);
  });
});
