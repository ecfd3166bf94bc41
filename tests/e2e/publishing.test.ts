import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickTo, expectTextSoon, launchBrowser, open, textOf, waitForPath } from "@tests/support/browser";
import { settle, signedInContext } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { postForm } from "@tests/support/http";
import { publishNewest } from "@tests/support/publishing";
import { startTestServer, type TestServer } from "@tests/support/server";
import { publicationOf } from "@server/content/publication-state";
import { createContent, getLatestVersion, saveVersion } from "@server/content/store";

/*
 * Publishing in the browser (issue 31, docs/publishing.md): on a demo document's edit page, the publication state
 * and Publish / Unpublish, through the dialog with JavaScript and the confirmation page without, each coming back
 * with its notice; an editor without `publish` sees the state and no button, and the action refuses them; the
 * overview's state column and its filter.
 */

let server: TestServer;
let browser: Browser;
/** A demo document (published at the first start, as every demo document). */
interface DemoDocument {
  bucketId: string;
  slug: string;
  contentId: string;
}
let demo: DemoDocument[];

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ seed: true }), launchBrowser()]);
  const { rows } = await server.db.query<DemoDocument>(
    `SELECT b.id AS "bucketId", b.slug, c.content_id AS "contentId" FROM contents c JOIN buckets b ON b.id = c.bucket_id
     WHERE b.slug IN ('exhibitions', 'artworks') ORDER BY b.slug DESC, c.created_at, c.content_id`,
  );
  demo = rows;
  expect(demo.length).toBeGreaterThanOrEqual(4);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

const PUBLISHER = ["user", "publish"] as const;

const bar = (page: Page) => page.locator(".publication-bar");
const badge = (page: Page) => bar(page).locator(".publication-badge");
const action = (page: Page, name: "Publish" | "Unpublish") => bar(page).getByRole("link", { name, exact: true });
const notice = (page: Page) => page.locator(".flash-notice");
const latestPath = (doc: DemoDocument) => `/b/${doc.slug}/${doc.contentId}/latest`;
const publishPath = (doc: DemoDocument) => `/b/${doc.slug}/${doc.contentId}/publish`;
const stateOf = async (doc: DemoDocument) => (await publicationOf(server.db, doc.bucketId, doc.contentId))!;

/** Saves the document again (its newest version no longer the published one): its state becomes "changed". */
async function saveAgain(doc: DemoDocument): Promise<string> {
  const latest = (await getLatestVersion(server.db, doc.bucketId, doc.contentId))!;
  const saved = await saveVersion(server.db, {
    bucketId: doc.bucketId,
    contentId: doc.contentId,
    baseVersionId: latest.versionId,
    data: { ...latest.data },
    userId: null,
  });
  return saved.versionId;
}

describe("an editor who may publish (JavaScript)", () => {
  it("publishes a changed demo document and unpublishes it through the dialog, the state and a notice following each", async () => {
    const doc = demo[0]!;
    expect((await stateOf(doc)).state).toBe("published");
    const newest = await saveAgain(doc);
    const ctx = await signedInContext(browser, server, { permissions: [...PUBLISHER] });
    const page = await ctx.newPage();
    await open(page, latestPath(doc));
    expect(await textOf(badge(page))).toBe("Changed");
    expect(await action(page, "Publish").getAttribute("href")).toBe(publishPath(doc));
    expect(await action(page, "Unpublish").getAttribute("href")).toBe(`${publishPath(doc)}?intent=unpublish`);

    const dialog = page.getByRole("alertdialog");
    await action(page, "Publish").click();
    await dialog.waitFor({ state: "visible" });
    expect(await textOf(dialog.locator("h2"))).toMatch(/^Publish “.+”\?$/);
    expect(await textOf(dialog.locator("p"))).toBe("Exhibits will show the newest version of this document from now on.");
    // No page of its own: the dialog stays on the edit page.
    expect(new URL(page.url()).pathname).toBe(latestPath(doc));
    await dialog.getByRole("button", { name: "Publish", exact: true }).click();
    await waitForPath(page, `${latestPath(doc)}?published=published`);
    await expectTextSoon(notice(page).locator("span"), "Published: exhibits show this version now.");
    await expectTextSoon(badge(page), "Published");
    await dialog.waitFor({ state: "detached" });
    expect(await stateOf(doc)).toMatchObject({ state: "published", publishedVersionId: newest });
    expect(await action(page, "Publish").count()).toBe(0);

    // Cancel leaves it as it is; confirming takes it off.
    await action(page, "Unpublish").click();
    await dialog.waitFor({ state: "visible" });
    expect(await textOf(dialog.locator("h2"))).toMatch(/^Unpublish “.+”\?$/);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    expect((await stateOf(doc)).state).toBe("published");
    await action(page, "Unpublish").click();
    await dialog.getByRole("button", { name: "Unpublish", exact: true }).click();
    await waitForPath(page, `${latestPath(doc)}?published=unpublished`);
    await expectTextSoon(notice(page).locator("span"), "Unpublished: exhibits no longer show this document.");
    await expectTextSoon(badge(page), "Unpublished");
    expect(await stateOf(doc)).toMatchObject({ state: "unpublished", publishedVersionId: null });
    expect(await action(page, "Unpublish").count()).toBe(0);
    expect(await action(page, "Publish").count()).toBe(1);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("in Dutch: the state and the buttons in the anchors' words", async () => {
    const doc = demo[2]!;
    await saveAgain(doc);
    const ctx = await signedInContext(browser, server, { permissions: [...PUBLISHER], locale: "nl-NL" });
    const page = await ctx.newPage();
    await open(page, latestPath(doc));
    expect(await textOf(badge(page))).toBe("Gewijzigd");
    expect(await bar(page).getByRole("link").allTextContents()).toEqual(["Publiceren", "Depubliceren", "Aan release toevoegen"]);
    await bar(page).getByRole("link", { name: "Publiceren", exact: true }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.waitFor({ state: "visible" });
    expect(await textOf(dialog.locator("h2"))).toMatch(/^“.+” publiceren\?$/);
    expect(await dialog.getByRole("button").allTextContents()).toEqual(["Annuleren", "Publiceren"]);
    await dialog.getByRole("button", { name: "Annuleren" }).click();
    await dialog.waitFor({ state: "detached" });
    ctx.expectNoErrors();
    await ctx.close();
  });
});

describe("publishing what it refers to (JavaScript)", () => {
  it("the dialog lists the unpublished documents the version refers to, ticked; the ticked ones are published with it", async () => {
    const lamps = await createTestBucket(server.db);
    const halls = await createTestBucket(server.db, {
      jsonSchema: {
        type: "object",
        properties: { title: { type: "string" }, lamps: { type: "array", items: { type: "string", _ref: lamps.collectionName } } },
      },
    });
    const ceiling = await createContent(server.db, lamps.id, { title: "Ceiling lamp" }, null);
    const spot = await createContent(server.db, lamps.id, { title: "Spotlight" }, null);
    const hall = await createContent(server.db, halls.id, { title: "Great hall", lamps: [ceiling.contentId, spot.contentId] }, null);
    const doc = { bucketId: halls.id, slug: halls.slug, contentId: hall.contentId };
    const ctx = await signedInContext(browser, server, { permissions: [...PUBLISHER] });
    const page = await ctx.newPage();
    await open(page, latestPath(doc));
    expect(await textOf(badge(page))).toBe("Draft");
    await action(page, "Publish").click();
    const dialog = page.getByRole("alertdialog");
    const listed = dialog.locator(".unpublished-references");
    await listed.waitFor({ state: "visible" });
    expect(await textOf(listed.locator("legend"))).toBe("It refers to 2 documents that are not published");
    expect(await listed.getByRole("checkbox", { checked: true }).count()).toBe(2);
    await listed.getByRole("checkbox", { name: /Spotlight/ }).uncheck();
    await dialog.getByRole("button", { name: "Publish", exact: true }).click();
    await waitForPath(page, `${latestPath(doc)}?published=published`);
    await expectTextSoon(badge(page), "Published");
    const stateIn = async (bucketId: string, contentId: string) => (await publicationOf(server.db, bucketId, contentId))?.state;
    expect(await stateIn(halls.id, hall.contentId)).toBe("published");
    expect(await stateIn(lamps.id, ceiling.contentId)).toBe("published");
    expect(await stateIn(lamps.id, spot.contentId)).toBe("draft");
    ctx.expectNoErrors();
    await ctx.close();
  });
});

describe("an editor who may publish (without JavaScript)", () => {
  it("unpublishes and publishes again through the confirmation page, back on the document with a notice each time", async () => {
    const doc = demo[1]!;
    expect((await stateOf(doc)).state).toBe("published");
    const ctx = await signedInContext(browser, server, { permissions: [...PUBLISHER], javaScriptEnabled: false });
    const page = await ctx.newPage();
    await open(page, latestPath(doc));
    expect(await textOf(badge(page))).toBe("Published");
    expect(await action(page, "Publish").count()).toBe(0);

    await clickTo(page, action(page, "Unpublish"), `${publishPath(doc)}?intent=unpublish`);
    expect(await textOf(page.locator("main h1"))).toMatch(/^Unpublish “.+”\?$/);
    await clickTo(page, page.getByRole("button", { name: "Unpublish", exact: true }), `${latestPath(doc)}?published=unpublished`);
    expect(await textOf(notice(page))).toBe("Unpublished: exhibits no longer show this document.");
    expect(await textOf(badge(page))).toBe("Unpublished");
    expect((await stateOf(doc)).state).toBe("unpublished");

    await clickTo(page, action(page, "Publish"), publishPath(doc));
    expect(await textOf(page.locator("main h1"))).toMatch(/^Publish “.+”\?$/);
    // Cancel goes back to the document without publishing.
    await clickTo(page, page.getByRole("link", { name: "Cancel" }), latestPath(doc));
    expect((await stateOf(doc)).state).toBe("unpublished");
    await clickTo(page, action(page, "Publish"), publishPath(doc));
    await clickTo(page, page.getByRole("button", { name: "Publish", exact: true }), `${latestPath(doc)}?published=published`);
    expect(await textOf(notice(page))).toBe("Published: exhibits show this version now.");
    expect(await textOf(badge(page))).toBe("Published");
    expect((await stateOf(doc)).state).toBe("published");
    ctx.expectNoErrors();
    await ctx.close();
  });
});

describe("an editor without the publish permission", () => {
  it("sees the state but no button, and a post to the publishing action is refused with 403", async () => {
    const doc = demo[3]!;
    const before = await stateOf(doc);
    for (const javaScriptEnabled of [true, false]) {
      const ctx = await signedInContext(browser, server, { permissions: ["user"], javaScriptEnabled });
      const page = await ctx.newPage();
      await open(page, latestPath(doc));
      expect(await textOf(badge(page))).toBe(
        { draft: "Draft", published: "Published", changed: "Changed", scheduled: "Scheduled", unpublished: "Unpublished" }[before.state],
      );
      // Asking for review is what they can do, when there is something to publish.
      expect(await bar(page).getByRole("link").allTextContents()).toEqual(before.state === "published" ? [] : ["Ask for review"]);
      expect(await bar(page).getByRole("button").count()).toBe(0);
      if (javaScriptEnabled) {
        const posted = await postForm(server.url, publishPath(doc), { intent: "unpublish" }, ctx.cookie);
        expect(posted.status).toBe(403);
        expect((await open(page, publishPath(doc)))?.status()).toBe(403);
      }
      ctx.expectNoErrors();
      await ctx.close();
    }
    expect(await stateOf(doc)).toEqual(before);
  });
});

describe("asking for review", () => {
  it("an editor asks (JavaScript on in English, off in Dutch); a publisher finds it on the home page and publishing closes it", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: { type: "object", properties: { title: { type: "string" } } } });
    for (const [javaScriptEnabled, locale] of [
      [true, "en"],
      [false, "nl-NL"],
    ] as const) {
      const doc = await createContent(server.db, bucket.id, { title: `Wadden at low tide (${locale})` }, null);
      const path = `/b/${bucket.slug}/${doc.contentId}/latest`;
      const words =
        locale === "en"
          ? { ask: "Ask for review", send: "Ask for review", notice: "Review asked: the publishers are told.", asked: /^Review asked by / }
          : {
              ask: "Beoordeling vragen",
              send: "Beoordeling vragen",
              notice: "Beoordeling gevraagd: wie publiceert, weet het.",
              asked: /^Beoordeling gevraagd door /,
            };
      const editor = await signedInContext(browser, server, { permissions: ["user"], javaScriptEnabled, locale });
      const page = await editor.newPage();
      await open(page, path);
      await clickTo(page, bar(page).getByRole("link", { name: words.ask }), `/b/${bucket.slug}/${doc.contentId}/review`);
      await page.locator("textarea[name=note]").fill("The Dutch title is new");
      await clickTo(page, page.getByRole("button", { name: words.send }), `${path}?review=asked`);
      await expectTextSoon(notice(page).locator("span"), words.notice);
      expect(await textOf(page.locator(".publication-review p"))).toMatch(words.asked);
      expect(await textOf(page.locator(".publication-review-note"))).toBe("The Dutch title is new");
      editor.expectNoErrors();
      await editor.close();

      const curator = await signedInContext(browser, server, { permissions: [...PUBLISHER], javaScriptEnabled });
      const home = await curator.newPage();
      await open(home, "/");
      const entry = home.locator(".home-reviews li", { hasText: `Wadden at low tide (${locale})` });
      await clickTo(home, entry.getByRole("link"), path);
      expect(await textOf(home.locator(".publication-review p"))).toMatch(/^Review asked by /);
      await clickTo(home, action(home, "Publish"), javaScriptEnabled ? path : `/b/${bucket.slug}/${doc.contentId}/publish`);
      const confirm = javaScriptEnabled ? home.getByRole("alertdialog") : home.locator("main");
      await clickTo(home, confirm.getByRole("button", { name: "Publish", exact: true }), `${path}?published=published`);
      expect(await home.locator(".publication-review").count()).toBe(0);
      await open(home, "/");
      expect(await home.locator(".home-reviews li", { hasText: `Wadden at low tide (${locale})` }).count()).toBe(0);
      curator.expectNoErrors();
      await curator.close();
    }
  });
});

describe("the overview's publication state", () => {
  it("shows each row's state, and ?state=draft (the filter of the search form) lists the fresh draft only", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: { type: "object", properties: { title: { type: "string" } } } });
    const live = await createContent(server.db, bucket.id, { title: "Already live" }, null);
    await publishNewest(server.db, bucket.id, live.contentId);
    await createContent(server.db, bucket.id, { title: "Fresh draft" }, null);
    for (const javaScriptEnabled of [true, false]) {
      const ctx = await signedInContext(browser, server, { javaScriptEnabled });
      const page = await ctx.newPage();
      await open(page, `/b/${bucket.slug}`);
      const row = (title: string) => page.locator("tbody tr", { hasText: title });
      expect(await textOf(page.locator("thead th.state-cell"))).toBe("State");
      expect(await textOf(row("Already live").locator(".state-cell .publication-badge"))).toBe("Published");
      expect(await textOf(row("Fresh draft").locator(".state-cell .publication-badge"))).toBe("Draft");

      await page.getByLabel("Publication state").selectOption("draft");
      await clickTo(page, page.getByRole("search").getByRole("button", { name: "Search" }), `/b/${bucket.slug}?q=&state=draft`);
      await expect.poll(() => page.locator("tbody tr").count()).toBe(1);
      expect(await textOf(page.locator("tbody tr"))).toContain("Fresh draft");
      expect(await page.getByLabel("Publication state").inputValue()).toBe("draft");

      await open(page, `/b/${bucket.slug}?state=changed`);
      expect(await textOf(page.locator(".overview .empty"))).toBe("No documents in this state.");
      await settle(page);
      ctx.expectNoErrors();
      await ctx.close();
    }
  });
});
