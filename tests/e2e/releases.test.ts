import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { getRelease, listReleases } from "@server/content/releases";
import { instantToZonedTime } from "@core/zoned-time";
import { launchBrowser, newContext, open, textOf } from "@tests/support/browser";
import { control, save, settle, signedInContext } from "@tests/support/content-browser";
import { deliver, deliveryClient, type Doc } from "@tests/support/delivery";
import { createTestBucket } from "@tests/support/fixtures";
import { createPublished } from "@tests/support/publishing";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * A release in the browser (issue 31, docs/publishing.md, Releases), JavaScript on in English and off in Dutch: an
 * editor who may not publish drafts changes to an exhibition and two artworks; exhibits still get what was published.
 * A curator adds the three to a new release from their pages, schedules it in the exhibits' time zone; when its time
 * comes (the release poller run at that moment: a clock the test sets) exhibits get the changes together (before, a
 * shareable link to the release shows them to someone without an account); the curator
 * rolls it back and they get what they had before.
 */

let server: TestServer;
let browser: Browser;
let exhibitions: Bucket;
let artworks: Bucket;
let token: string;
const unique = Date.now().toString(36);
const serverZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  artworks = await createTestBucket(server.db, {
    slug: `relworks-${unique}`,
    collectionName: `relworks-${unique}`,
    jsonSchema: { type: "object", properties: { title: { type: "string", title: "Title" } } },
  });
  exhibitions = await createTestBucket(server.db, {
    slug: `relexhib-${unique}`,
    collectionName: `relexhib-${unique}`,
    jsonSchema: {
      type: "object",
      properties: {
        title: { type: "string", title: "Title" },
        artworks: { type: "array", title: "Artworks", items: { type: "string", _ref: artworks.collectionName } },
      },
    },
  });
  ({ token } = await deliveryClient(server.db, { read: [exhibitions.slug, artworks.slug] }));
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

const WORDS = {
  en: { locale: "en-US", add: "Add to release", newRelease: "A new release, named", name: "Name of a new release", confirmAdd: "Add" },
  nl: {
    locale: "nl-NL",
    add: "Aan release toevoegen",
    newRelease: "Een nieuwe release, met de naam",
    name: "Naam van een nieuwe release",
    confirmAdd: "Toevoegen",
  },
} as const;
const MORE_WORDS = {
  en: {
    share: "Share this release",
    makeLink: "Make link",
    goesLive: "Goes live at",
    schedule: "Schedule",
    scheduled: "Scheduled",
    published: "Published",
    rollback: "Roll back",
    rolledBack: "Rolled back",
  },
  nl: {
    share: "Deze release delen",
    makeLink: "Link maken",
    goesLive: "Gaat live op",
    schedule: "Plannen",
    scheduled: "Gepland",
    published: "Gepubliceerd",
    rollback: "Terugdraaien",
    rolledBack: "Teruggedraaid",
  },
} as const;

const titleServed = async (bucket: Bucket, contentId: string): Promise<string | null> => {
  const response = await deliver(server.url, `/api/v1/delivery/buckets/${bucket.slug}/documents/${contentId}`, token);
  return response.status === 200 ? (((await response.json()) as Doc).data.title as string) : null;
};

describe.each([
  { javaScriptEnabled: true, language: "en" as const },
  { javaScriptEnabled: false, language: "nl" as const },
])("a release, JavaScript $javaScriptEnabled, in $language", ({ javaScriptEnabled, language }) => {
  it("drafts, gathers, schedules, goes live at its time, and is rolled back", async () => {
    const words = { ...WORDS[language], ...MORE_WORDS[language] };
    const tag = `${language}-${unique}`;
    const works = [
      await createPublished(server.db, artworks.id, { title: `Tide ${tag}` }, null),
      await createPublished(server.db, artworks.id, { title: `Dune ${tag}` }, null),
    ];
    const exhibition = await createPublished(
      server.db,
      exhibitions.id,
      { title: `Coast ${tag}`, artworks: works.map((work) => work.contentId) },
      null,
    );
    const documents = [
      { bucket: exhibitions, contentId: exhibition.contentId, before: `Coast ${tag}`, after: `Coast, reopened ${tag}` },
      { bucket: artworks, contentId: works[0]!.contentId, before: `Tide ${tag}`, after: `High tide ${tag}` },
      { bucket: artworks, contentId: works[1]!.contentId, before: `Dune ${tag}`, after: `Dune at dusk ${tag}` },
    ];
    const documentPath = (document: (typeof documents)[number]) => `/b/${document.bucket.slug}/${document.contentId}/latest`;

    // An editor who may not publish drafts the changes: exhibits still get what was published.
    const editor = await signedInContext(browser, server, { javaScriptEnabled, locale: words.locale, permissions: ["user"] });
    const editing = await editor.newPage();
    for (const document of documents) {
      await open(editing, documentPath(document));
      expect(await editing.getByRole("link", { name: words.add }).count()).toBe(0);
      await control(editing, "title").fill(document.after);
      expect(await save(editing)).toBeLessThan(400);
      expect(await titleServed(document.bucket, document.contentId)).toBe(document.before);
    }
    editor.expectNoErrors();
    await editor.close();

    // A curator adds the three to a new release from their pages.
    const curator = await signedInContext(browser, server, { javaScriptEnabled, locale: words.locale, permissions: ["user", "publish"] });
    const page = await curator.newPage();
    const releaseName = `Opening ${tag}`;
    for (const [index, document] of documents.entries()) {
      await open(page, documentPath(document));
      await page.locator(".publication-bar").getByRole("link", { name: words.add }).click();
      await settle(page);
      if (index === 0) {
        await page.getByLabel(words.newRelease).check();
        await page.getByLabel(words.name).fill(releaseName);
      } else {
        await page.getByLabel(releaseName).check();
      }
      await page.getByRole("button", { name: words.confirmAdd, exact: true }).click();
      await page.waitForURL(/\/releases\/[0-9a-f-]{36}\?notice=added$/);
      await settle(page);
    }
    const releaseId = /\/releases\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    const rows = page.locator("table.release-items tbody tr");
    expect(await rows.count()).toBe(3);
    expect(await textOf(rows.nth(0))).toContain(`Coast, reopened ${tag}`);

    // Scheduled for tomorrow at ten, in the exhibits' time zone; the documents show it.
    const tomorrow = instantToZonedTime(new Date(Date.now() + 86_400_000), serverZone).slice(0, 10);
    await page.getByLabel(words.goesLive).fill(`${tomorrow}T10:00`);
    await page.getByRole("button", { name: words.schedule, exact: true }).click();
    await page.waitForURL(/\?notice=scheduled$/);
    await settle(page);
    expect(await textOf(page.locator(".release-heading .release-badge"))).toBe(words.scheduled);
    const release = await getRelease(server.db, releaseId);
    expect(release.state).toBe("scheduled");
    expect(instantToZonedTime(release.scheduledAt!, serverZone)).toBe(`${tomorrow}T10:00`);
    expect(await textOf(rows.nth(1).locator(".publication-badge"))).toBe(words.scheduled);
    for (const document of documents) expect(await titleServed(document.bucket, document.contentId)).toBe(document.before);

    // Previewed through a shareable link, opened by someone without an account: the release's versions, not the live ones.
    await page.locator("details.release-share > summary", { hasText: words.share }).click();
    await page.getByRole("button", { name: words.makeLink, exact: true }).click();
    const link = await page.locator(".shareable-created .shareable-link input").inputValue({ timeout: 15_000 });
    expect(link).toMatch(/\/shareables\/[\w-]+$/);
    const visitor = await newContext(browser, server.url, { javaScriptEnabled, locale: words.locale });
    const shared = await visitor.newPage();
    await open(shared, new URL(link).pathname);
    for (const document of documents) expect(await shared.locator("main").textContent()).toContain(document.after);
    visitor.expectNoErrors();
    await visitor.close();
    if (!javaScriptEnabled) await open(page, `/releases/${releaseId}`);

    // Its time comes: the poller publishes the three at once.
    expect(await server.releases.runOnce(new Date(release.scheduledAt!.getTime() - 60_000))).not.toContain(releaseId);
    expect(await server.releases.runOnce(release.scheduledAt!)).toContain(releaseId);
    for (const document of documents) expect(await titleServed(document.bucket, document.contentId)).toBe(document.after);
    await open(page, `/releases/${releaseId}`);
    expect(await textOf(page.locator(".release-heading .release-badge"))).toBe(words.published);

    // Rolled back after the confirmation: exhibits get what they had before.
    await page.getByRole("link", { name: words.rollback, exact: true }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.waitFor({ state: "visible" });
    await dialog.getByRole("button", { name: words.rollback, exact: true }).click();
    await page.waitForURL(/\?notice=rolledBack$/);
    await settle(page);
    expect(await textOf(page.locator(".release-heading .release-badge"))).toBe(words.rolledBack);
    for (const document of documents) expect(await titleServed(document.bucket, document.contentId)).toBe(document.before);
    expect((await listReleases(server.db)).find((listed) => listed.id === releaseId)?.state).toBe("rolled_back");
    curator.expectNoErrors();
    await curator.close();
  });
});
