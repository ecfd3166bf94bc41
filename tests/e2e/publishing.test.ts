import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickTo, expectTextSoon, launchBrowser, open, textOf, waitForPath } from "@tests/support/browser";
import { settle, signedInContext } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { postForm } from "@tests/support/http";
import { publishNewest } from "@tests/support/publishing";
import { startTestServer, type TestServer } from "@tests/support/server";
import { publicationOf } from "@server/content/publishing";
import { createContent, getLatestVersion, saveVersion } from "@server/content/store";

/*
 * Publishing in the browser (issue 31, docs/publishing.md): on a demo document's edit page, the publication state
 * and Publish / Unpublish, through the dialog with JavaScript and the confirmation page without, each coming back
 * with its notice; an editor without `publish` sees the state and no button, and the action refuses them; the
 * overview's state column and its filter.
 */

let server: TestServer;
let browser: Browser;
/** The demo's exhibitions (published at the first start, as every demo document). */
let exhibitions: { id: string; slug: string; documents: string[] };

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ seed: true }), launchBrowser()]);
  const { rows } = await server.db.query<{ bucketId: string; contentId: string }>(
    `SELECT b.id AS "bucketId", c.content_id AS "contentId" FROM contents c JOIN buckets b ON b.id = c.bucket_id
     WHERE b.slug = 'exhibitions' ORDER BY c.created_at, c.content_id`,
  );
  exhibitions = { id: rows[0]!.bucketId, slug: "exhibitions", documents: rows.map((row) => row.contentId) };
  expect(exhibitions.documents.length).toBeGreaterThanOrEqual(3);
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
const latestPath = (contentId: string) => `/b/${exhibitions.slug}/${contentId}/latest`;
const stateOf = async (contentId: string) => (await publicationOf(server.db, exhibitions.id, contentId))!;

/** Saves the document again (its newest version no longer the published one): its state becomes "changed". */
async function saveAgain(contentId: string): Promise<string> {
  const latest = (await getLatestVersion(server.db, exhibitions.id, contentId))!;
  const saved = await saveVersion(server.db, {
    bucketId: exhibitions.id,
    contentId,
    baseVersionId: latest.versionId,
    data: { ...latest.data, ticketPrice: 17 },
    userId: null,
  });
  return saved.versionId;
}

describe("an editor who may publish (JavaScript)", () => {
  it("publishes a changed demo document and unpublishes it through the dialog, the state and a notice following each", async () => {
    const contentId = exhibitions.documents[0]!;
    expect((await stateOf(contentId)).state).toBe("published");
    const newest = await saveAgain(contentId);
    const ctx = await signedInContext(browser, server, { permissions: [...PUBLISHER] });
    const page = await ctx.newPage();
    await open(page, latestPath(contentId));
    expect(await textOf(badge(page))).toBe("Changed");
    expect(await action(page, "Publish").getAttribute("href")).toBe(`/b/${exhibitions.slug}/${contentId}/publish`);
    expect(await action(page, "Unpublish").getAttribute("href")).toBe(`/b/${exhibitions.slug}/${contentId}/publish?intent=unpublish`);

    const dialog = page.getByRole("alertdialog");
    await action(page, "Publish").click();
    await dialog.waitFor({ state: "visible" });
    expect(await textOf(dialog.locator("h2"))).toMatch(/^Publish “.+”\?$/);
    expect(await textOf(dialog.locator("p"))).toBe("Exhibits will show the newest version of this document from now on.");
    // No page of its own: the dialog stays on the edit page.
    expect(new URL(page.url()).pathname).toBe(latestPath(contentId));
    await dialog.getByRole("button", { name: "Publish", exact: true }).click();
    await waitForPath(page, `${latestPath(contentId)}?published=published`);
    await expectTextSoon(notice(page).locator("span"), "Published: exhibits show this version now.");
    await expectTextSoon(badge(page), "Published");
    await dialog.waitFor({ state: "detached" });
    expect(await stateOf(contentId)).toMatchObject({ state: "published", publishedVersionId: newest });
    expect(await action(page, "Publish").count()).toBe(0);

    // Cancel leaves it as it is; confirming takes it off.
    await action(page, "Unpublish").click();
    await dialog.waitFor({ state: "visible" });
    expect(await textOf(dialog.locator("h2"))).toMatch(/^Unpublish “.+”\?$/);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    expect((await stateOf(contentId)).state).toBe("published");
    await action(page, "Unpublish").click();
    await dialog.getByRole("button", { name: "Unpublish", exact: true }).click();
    await waitForPath(page, `${latestPath(contentId)}?published=unpublished`);
    await expectTextSoon(notice(page).locator("span"), "Unpublished: exhibits no longer show this document.");
    await expectTextSoon(badge(page), "Unpublished");
    expect(await stateOf(contentId)).toMatchObject({ state: "unpublished", publishedVersionId: null });
    expect(await action(page, "Unpublish").count()).toBe(0);
    expect(await action(page, "Publish").count()).toBe(1);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("in Dutch: the state and the buttons in the anchors' words", async () => {
    const contentId = exhibitions.documents[2]!;
    await saveAgain(contentId);
    const ctx = await signedInContext(browser, server, { permissions: [...PUBLISHER], locale: "nl-NL" });
    const page = await ctx.newPage();
    await open(page, latestPath(contentId));
    expect(await textOf(badge(page))).toBe("Gewijzigd");
    expect(await bar(page).getByRole("link").allTextContents()).toEqual(["Publiceren", "Depubliceren"]);
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

describe("an editor who may publish (without JavaScript)", () => {
  it("unpublishes and publishes again through the confirmation page, back on the document with a notice each time", async () => {
    const contentId = exhibitions.documents[1]!;
    expect((await stateOf(contentId)).state).toBe("published");
    const ctx = await signedInContext(browser, server, { permissions: [...PUBLISHER], javaScriptEnabled: false });
    const page = await ctx.newPage();
    await open(page, latestPath(contentId));
    expect(await textOf(badge(page))).toBe("Published");
    expect(await action(page, "Publish").count()).toBe(0);

    await clickTo(page, action(page, "Unpublish"), `/b/${exhibitions.slug}/${contentId}/publish?intent=unpublish`);
    expect(await textOf(page.locator("main h1"))).toMatch(/^Unpublish “.+”\?$/);
    await clickTo(page, page.getByRole("button", { name: "Unpublish", exact: true }), `${latestPath(contentId)}?published=unpublished`);
    expect(await textOf(notice(page))).toBe("Unpublished: exhibits no longer show this document.");
    expect(await textOf(badge(page))).toBe("Unpublished");
    expect((await stateOf(contentId)).state).toBe("unpublished");

    await clickTo(page, action(page, "Publish"), `/b/${exhibitions.slug}/${contentId}/publish`);
    expect(await textOf(page.locator("main h1"))).toMatch(/^Publish “.+”\?$/);
    // Cancel goes back to the document without publishing.
    await clickTo(page, page.getByRole("link", { name: "Cancel" }), latestPath(contentId));
    expect((await stateOf(contentId)).state).toBe("unpublished");
    await clickTo(page, action(page, "Publish"), `/b/${exhibitions.slug}/${contentId}/publish`);
    await clickTo(page, page.getByRole("button", { name: "Publish", exact: true }), `${latestPath(contentId)}?published=published`);
    expect(await textOf(notice(page))).toBe("Published: exhibits show this version now.");
    expect(await textOf(badge(page))).toBe("Published");
    expect((await stateOf(contentId)).state).toBe("published");
    ctx.expectNoErrors();
    await ctx.close();
  });
});

describe("an editor without the publish permission", () => {
  it("sees the state but no button, and a post to the publishing action is refused with 403", async () => {
    const contentId = exhibitions.documents[3] ?? exhibitions.documents[0]!;
    const before = await stateOf(contentId);
    for (const javaScriptEnabled of [true, false]) {
      const ctx = await signedInContext(browser, server, { permissions: ["user"], javaScriptEnabled });
      const page = await ctx.newPage();
      await open(page, latestPath(contentId));
      expect(await textOf(badge(page))).toBe(
        { draft: "Draft", published: "Published", changed: "Changed", unpublished: "Unpublished" }[before.state],
      );
      expect(await bar(page).getByRole("link").count()).toBe(0);
      expect(await bar(page).getByRole("button").count()).toBe(0);
      if (javaScriptEnabled) {
        const posted = await postForm(server.url, `/b/${exhibitions.slug}/${contentId}/publish`, { intent: "unpublish" }, ctx.cookie);
        expect(posted.status).toBe(403);
        expect((await open(page, `/b/${exhibitions.slug}/${contentId}/publish`))?.status()).toBe(403);
      }
      ctx.expectNoErrors();
      await ctx.close();
    }
    expect(await stateOf(contentId)).toEqual(before);
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
      expect(await textOf(page.locator("thead th").nth(1))).toBe("State");
      expect(await textOf(row("Already live").locator(".publication-badge"))).toBe("Published");
      expect(await textOf(row("Fresh draft").locator(".publication-badge"))).toBe("Draft");

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
