import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent, getLatestVersion, getSingletonContent, saveVersion } from "@server/content/store";
import { createTestBucket, decode, errorPage, page, signedInUser } from "@tests/support/fixtures";
import { get, postForm } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The dle-content screen (docs/screens.md) without JavaScript: its guards (as the generic editor's), its three
 * modes (a singleton's edit page, created on its first save; new, which a singleton sends to its edit page; a
 * given version with the restore), the translation status and the preview from the stored or posted values, and
 * the links to the session buckets the user may see, in their stored order.
 */

let server: TestServer;
let editor: { cookie: string; user: { id: string } };
let restricted: { cookie: string };
let outsider: { cookie: string };
let environment: Bucket;
let environments: Bucket;
let empty: Bucket;
let generic: Bucket;
let hidden: Bucket;
let learningSessions: Bucket;
let sessions: Bucket;
let secretSessions: Bucket;
let elsewhereSessions: Bucket;
let document: { contentId: string; versionId: string };
let genericDocument: { contentId: string; versionId: string };

const suffix = Date.now().toString(36);
const schema = {
  type: "object",
  required: ["title"],
  properties: {
    title: { type: "string", title: "Title", translate: true },
    introduction: { type: "string", title: "Introduction", renderer: "textarea", translate: true },
    teacherNotes: { type: "string", title: "Notes for teachers", renderer: "textarea", translate: true },
    highlights: { type: "array", title: "Highlights", sortable: true, items: { type: "string", title: "Highlight", translate: true } },
    ageGroup: { type: "string", title: "Age group", enum: ["6-9", "10-12"] },
  },
};
const stored = {
  title: { nl: "Het museum als leslokaal", en: "The museum as a classroom" },
  introduction: { nl: "Drie sessies.\n\nVoor de klas.", en: "Three sessions." },
  teacherNotes: { nl: "Veertig minuten." },
  highlights: [{ nl: "Korte films", en: "Short films" }],
  ageGroup: "10-12",
};
const sessionSchema = { type: "object", properties: { title: { type: "string", title: "Title" } } };

/** The form's fields of a document, as the edit page posts them. */
const fields = (contentId: string, baseVersionId: string, overrides: Record<string, string> = {}) => ({
  __contentId: contentId,
  __baseVersionId: baseVersionId,
  "title.nl": "Het museum als leslokaal",
  "title.en": "The museum as a classroom",
  "introduction.nl": "Drie sessies.",
  "introduction.en": "Three sessions.",
  "teacherNotes.nl": "",
  "teacherNotes.en": "",
  "highlights[0].nl": "Korte films",
  "highlights[0].en": "Short films",
  ageGroup: "10-12",
  ...overrides,
});

const versionCount = async (bucket: Bucket) =>
  Number(
    (
      await server.db.query<{ count: string }>(
        "SELECT count(*) FROM versions v JOIN contents c USING (content_id) WHERE c.bucket_id = $1",
        [bucket.id],
      )
    ).rows[0]!.count,
  );

/** A part of the page as text (tags and React's comment markers removed). */
function section(html: string, pattern: RegExp): string {
  const match = pattern.exec(html);
  if (!match) throw new Error(`no ${pattern} on the page`);
  return decode(
    match[1]!
      .replace(/<!-- -->/g, "")
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ")
      .trim(),
  );
}
const strip = (html: string) => section(html, /<nav class="translation-strip"[^>]*>([\s\S]*?)<\/nav>/);
const preview = (html: string) => section(html, /<section class="dle-preview"[^>]*>([\s\S]*?)<\/section>/);
const sessionLinks = (html: string) => section(html, /<section class="dle-sessions"[^>]*>([\s\S]*?)<\/section>/);

beforeAll(async () => {
  server = await startTestServer();
  editor = await signedInUser(server.url, server.db);
  outsider = await signedInUser(server.url, server.db, { permissions: [] });
  environment = await createTestBucket(server.db, {
    slug: `dle-env-${suffix}`,
    name: "Environment",
    singleton: true,
    screen: "dle-content",
    jsonSchema: schema,
  });
  environments = await createTestBucket(server.db, {
    slug: `dle-envs-${suffix}`,
    name: "Environments",
    screen: "dle-content",
    jsonSchema: schema,
  });
  empty = await createTestBucket(server.db, {
    slug: `dle-empty-${suffix}`,
    name: "Empty environment",
    singleton: true,
    screen: "dle-content",
    jsonSchema: schema,
  });
  generic = await createTestBucket(server.db, { slug: `dle-generic-${suffix}`, name: "Generic", jsonSchema: schema });
  hidden = await createTestBucket(server.db, {
    slug: `dle-hidden-${suffix}`,
    name: "Hidden",
    singleton: true,
    private: true,
    screen: "dle-content",
    jsonSchema: schema,
  });
  learningSessions = await createTestBucket(server.db, {
    slug: `dle-lessons-${suffix}`,
    name: "Lessons",
    screen: "dle-sessies",
    jsonSchema: sessionSchema,
    position: 1,
  });
  sessions = await createTestBucket(server.db, {
    slug: `dle-sessions-${suffix}`,
    name: "Visits",
    screen: "sessies",
    jsonSchema: sessionSchema,
    position: 0,
  });
  secretSessions = await createTestBucket(server.db, {
    slug: `dle-secret-${suffix}`,
    name: "Secret lessons",
    screen: "dle-sessies",
    private: true,
    jsonSchema: sessionSchema,
  });
  elsewhereSessions = await createTestBucket(server.db, {
    slug: `dle-elsewhere-${suffix}`,
    name: "Other lessons",
    screen: "dle-sessies",
    jsonSchema: sessionSchema,
  });
  restricted = await signedInUser(server.url, server.db, { buckets: [environment.slug, learningSessions.slug] });

  document = await createContent(server.db, environment.id, stored, editor.user.id, { singleton: true });
  await createContent(server.db, hidden.id, stored, editor.user.id, { singleton: true });
  await createContent(server.db, environments.id, stored, editor.user.id);
  genericDocument = await createContent(server.db, generic.id, stored, editor.user.id);
  // Lessons: four, two placed (the order the dle-sessies overview stores), two never placed (newest first after).
  const lesson = async (title: string, position: number | null, age: string) => {
    const created = await createContent(server.db, learningSessions.id, { title }, editor.user.id);
    await server.db.query("UPDATE contents SET position = $2, updated_at = now() - $3::interval WHERE content_id = $1", [
      created.contentId,
      position,
      age,
    ]);
  };
  await lesson("Unplaced older", null, "2 days");
  await lesson("Unplaced newer", null, "1 day");
  await lesson("Second", 2, "0 seconds");
  await lesson("First", 1, "3 days");
  await createContent(server.db, sessions.id, { title: "Harbour visit" }, editor.user.id);
  await createContent(server.db, secretSessions.id, { title: "Never listed" }, editor.user.id);
  await createContent(server.db, elsewhereSessions.id, { title: "Elsewhere" }, editor.user.id);
});

afterAll(() => server.stop());

describe("guards: as the generic editor's, for the page and its post", () => {
  const paths = () => [
    `/dle-content/${environment.slug}/edit`,
    `/dle-content/${environments.slug}/new`,
    `/dle-content/${environment.slug}/${document.contentId}/latest`,
  ];

  it("sends an anonymous visitor to sign in, and a user without the user permission to /no-access", async () => {
    for (const path of paths()) {
      const anonymous = await get(server.url, path);
      expect(anonymous.status, path).toBe(302);
      expect(anonymous.headers.get("location"), path).toBe(`/login?from_url=${encodeURIComponent(path)}`);
      const refused = await get(server.url, path, outsider.cookie);
      expect(refused.headers.get("location"), path).toBe("/no-access");
    }
  });

  it("answers 404 for a bucket of another screen, a private bucket and one outside the user's list", async () => {
    const cases: Array<[string, string]> = [
      [`/dle-content/${generic.slug}/new`, editor.cookie],
      [`/dle-content/${generic.slug}/${genericDocument.contentId}/latest`, editor.cookie],
      [`/dle-content/${learningSessions.slug}/new`, editor.cookie],
      [`/dle-content/${hidden.slug}/edit`, editor.cookie],
      [`/dle-content/${hidden.slug}/new`, editor.cookie],
      [`/dle-content/${environments.slug}/new`, restricted.cookie],
    ];
    for (const [path, cookie] of cases) {
      const { status, html } = await page(server.url, path, cookie);
      expect(status, path).toBe(404);
      expect(errorPage(html), path).toEqual({ status: "404", message: "This page could not be found" });
    }
  });

  it("refuses the post likewise, with nothing written; a cross-site post is refused before any work", async () => {
    const before = {
      generic: await versionCount(generic),
      hidden: await versionCount(hidden),
      environment: await versionCount(environment),
    };
    const anonymous = await postForm(server.url, `/dle-content/${environment.slug}/edit`, fields(document.contentId, document.versionId));
    expect(anonymous.headers.get("location")).toMatch(/^\/login\?from_url=/);
    const noPermission = await postForm(
      server.url,
      `/dle-content/${environment.slug}/edit`,
      fields(document.contentId, document.versionId),
      outsider.cookie,
    );
    expect(noPermission.headers.get("location")).toBe("/no-access");
    const otherScreen = await postForm(
      server.url,
      `/dle-content/${generic.slug}/${genericDocument.contentId}/latest`,
      fields(genericDocument.contentId, genericDocument.versionId),
      editor.cookie,
    );
    expect(otherScreen.status).toBe(404);
    const privateBucket = await postForm(server.url, `/dle-content/${hidden.slug}/edit`, fields("", ""), editor.cookie);
    expect(privateBucket.status).toBe(404);
    const crossSite = await postForm(
      server.url,
      `/dle-content/${environment.slug}/edit`,
      fields(document.contentId, document.versionId, { "title.en": "Forged" }),
      editor.cookie,
      {
        Origin: "https://evil.example",
      },
    );
    expect(crossSite.status).toBe(403);
    expect({
      generic: await versionCount(generic),
      hidden: await versionCount(hidden),
      environment: await versionCount(environment),
    }).toEqual(before);
  });
});

describe("modes", () => {
  it("a singleton's new page is its edit page; a bucket of several environments has a new page and no edit page", async () => {
    const singletonNew = await get(server.url, `/dle-content/${environment.slug}/new`, editor.cookie);
    expect(singletonNew.status).toBe(302);
    expect(singletonNew.headers.get("location")).toBe(`/dle-content/${environment.slug}/edit`);
    const withQuery = await get(server.url, `/dle-content/${environment.slug}/new?return=abc`, editor.cookie);
    expect(withQuery.headers.get("location")).toBe(`/dle-content/${environment.slug}/edit?return=abc`);
    const severalEdit = await get(server.url, `/dle-content/${environments.slug}/edit`, editor.cookie);
    expect(severalEdit.status).toBe(302);
    expect(severalEdit.headers.get("location")).toBe(`/b/${environments.slug}`);
    const { status, html } = await page(server.url, `/dle-content/${environments.slug}/new`, editor.cookie);
    expect(status).toBe(200);
    expect(html).toContain("dle-content-screen");
    expect(strip(html)).toContain("NL 0 of 4 filled");
  });

  it("a singleton without its document shows an empty form, and its first save creates it and returns to its edit page", async () => {
    expect(await getSingletonContent(server.db, empty.id)).toBeNull();
    const { status, html } = await page(server.url, `/dle-content/${empty.slug}/edit`, editor.cookie);
    expect(status).toBe(200);
    expect(html).toContain("<h1>Empty environment</h1>");
    const saved = await postForm(server.url, `/dle-content/${empty.slug}/edit`, fields("", "", { "title.en": "Created" }), editor.cookie);
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(`/dle-content/${empty.slug}/edit?saved`);
    const created = await getSingletonContent(server.db, empty.id);
    expect(created?.data).toMatchObject({ title: { en: "Created" } });
    const after = await page(server.url, `/dle-content/${empty.slug}/edit?saved`, editor.cookie);
    expect(preview(after.html)).toContain("Created");
  });

  it("an older version shows the notice and the history, and its save restores it as the newest version", async () => {
    const created = await createContent(server.db, environments.id, stored, editor.user.id);
    const second = await saveVersion(server.db, {
      bucketId: environments.id,
      contentId: created.contentId,
      baseVersionId: created.versionId,
      userId: editor.user.id,
      data: { ...stored, title: { nl: "Tweede", en: "Second" } },
    });
    const { status, html } = await page(
      server.url,
      `/dle-content/${environments.slug}/${created.contentId}/${created.versionId}`,
      editor.cookie,
    );
    expect(status).toBe(200);
    expect(html).toContain("You are looking at an older version");
    expect(html).toContain("Restore this version");
    expect(html).toContain('class="history-panel');
    expect(preview(html)).toContain("The museum as a classroom");
    const restored = await postForm(
      server.url,
      `/dle-content/${environments.slug}/${created.contentId}/${created.versionId}`,
      fields(created.contentId, second.versionId),
      editor.cookie,
    );
    expect(restored.headers.get("location")).toBe(`/dle-content/${environments.slug}/${created.contentId}/latest?saved`);
    expect((await getLatestVersion(server.db, environments.id, created.contentId))?.data).toMatchObject({
      title: { en: "The museum as a classroom" },
    });
    // A save on the same base again is a conflict, the input kept.
    const conflict = await postForm(
      server.url,
      `/dle-content/${environments.slug}/${created.contentId}/latest`,
      fields(created.contentId, second.versionId, { "title.en": "Late edit" }),
      editor.cookie,
    );
    expect(conflict.status).toBe(409);
    const text = await conflict.text();
    expect(text).toContain("saved this document while you were editing it");
    expect(preview(text)).toContain("Late edit");
  });
});

describe("what the page shows", () => {
  it("the translation status per locale: filled of all translatable fields, and links to the missing inputs", async () => {
    const { html } = await page(server.url, `/dle-content/${environment.slug}/edit`, editor.cookie);
    // title, introduction, teacherNotes, highlights[0]: en lacks the notes.
    expect(strip(html)).toBe("Translations NL 4 of 4 filled ✓ complete EN 3 of 4 filled Missing: Notes for teachers");
    const formId = `bucket-form-${environment.slug}-${document.contentId}`;
    expect(html).toContain(`href="#${formId}-teacherNotes.en"`);
    expect(html).toContain(`id="${formId}-teacherNotes.en"`);
  });

  it("the preview of the main texts per locale as stored: heading, paragraphs, the list", async () => {
    const { html } = await page(server.url, `/dle-content/${environment.slug}/edit`, editor.cookie);
    expect(preview(html)).toBe(
      "Preview The main texts as the learning environment shows them. " +
        "NL Het museum als leslokaal Drie sessies. Voor de klas. Veertig minuten. Korte films " +
        "EN The museum as a classroom Three sessions. Not filled in yet Short films",
    );
    expect(html).toMatch(
      /<article class="dle-preview-locale" lang="en" data-locale="en"><p class="dle-preview-locale-name">EN<\/p><h3 data-text="title">The museum as a classroom<\/h3>/,
    );
  });

  it("the posted values after a refused save (no JavaScript): preview and status follow the input", async () => {
    const refused = await postForm(
      server.url,
      `/dle-content/${environment.slug}/edit`,
      fields(document.contentId, document.versionId, {
        "title.nl": "",
        "teacherNotes.nl": "Veertig minuten.",
        "teacherNotes.en": "Forty minutes.",
      }),
      editor.cookie,
    );
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(strip(html)).toBe("Translations NL 3 of 4 filled Missing: Title EN 4 of 4 filled ✓ complete");
    expect(preview(html)).toContain("Forty minutes.");
    expect(await versionCount(environment)).toBe(1);
  });

  it("links to the session buckets the user may see, with their counts and first sessions in stored order", async () => {
    const { html } = await page(server.url, `/dle-content/${environment.slug}/edit`, editor.cookie);
    const links = sessionLinks(html);
    expect(links).toContain("Lessons 4 sessions First Second Unplaced newer All sessions of Lessons");
    expect(links).toContain("Visits 1 session Harbour visit");
    expect(links.indexOf("Lessons")).toBeLessThan(links.indexOf("Visits"));
    expect(links).toContain("Other lessons");
    expect(links).not.toContain("Secret lessons");
    expect(html).toContain(`href="/dle-sessies/${learningSessions.slug}"`);
    expect(html).toContain(`href="/sessies/${sessions.slug}"`);

    const limited = sessionLinks((await page(server.url, `/dle-content/${environment.slug}/edit`, restricted.cookie)).html);
    expect(limited).toContain("Lessons 4 sessions");
    expect(limited).not.toContain("Visits");
    expect(limited).not.toContain("Other lessons");
  });

  it("speaks Dutch to a Dutch editor", async () => {
    const { html } = await page(server.url, `/dle-content/${environment.slug}/edit`, editor.cookie, { "Accept-Language": "nl-NL" });
    expect(strip(html)).toContain("EN 3 van 4 ingevuld Ontbreekt: Notes for teachers");
    expect(sessionLinks(html)).toContain("Lessons 4 sessies");
  });
});
