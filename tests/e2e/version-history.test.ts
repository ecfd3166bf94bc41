import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContent, saveVersion } from "@server/content/store";
import { clickTo, expectTextSoon, JS_MODES, launchBrowser, open, pathOf, textOf, waitForPath } from "@tests/support/browser";
import { control, save, settle, shownErrors, signedInContext, storedDocument, submitWith } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The version history panel, with JavaScript and without: open an older version and restore it (no conflict
 * message: nobody else saved), restore from the panel, compare two versions and see what changed (with
 * JavaScript in the panel, without on the compare page).
 */

let server: TestServer;
let browser: Browser;

const SCHEMA = {
  type: "object",
  required: ["name"],
  properties: {
    name: { type: "string", title: "Name" },
    rooms: { type: "array", title: "Rooms", items: { type: "string", title: "Room" } },
  },
};

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

/** A document with two versions, "Old" then "New", by the signed-in user. */
async function twoVersions(userId: string) {
  const bucket = await createTestBucket(server.db, { jsonSchema: SCHEMA });
  const first = await createContent(server.db, bucket.id, { name: "Old", rooms: ["East"] }, userId);
  const second = await saveVersion(server.db, {
    bucketId: bucket.id,
    contentId: first.contentId,
    baseVersionId: first.versionId,
    data: { name: "New", rooms: ["East", "West"] },
    userId,
  });
  return { bucket, first, second, latestPath: `/b/${bucket.slug}/${first.contentId}/latest` };
}

const panel = (page: Page) => page.locator("details.history-panel");
const entry = (page: Page, versionId: string) => panel(page).locator(`li[data-version="${versionId}"]`);

async function openPanel(page: Page) {
  if (!(await panel(page).evaluate((details: HTMLDetailsElement) => details.open))) await panel(page).locator("summary").click();
}

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  it("opens an older version from the panel, and 'Restore this version' saves it (with the editor's changes) as the newest, without a conflict", async () => {
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const { bucket, first, latestPath } = await twoVersions(ctx.user.id);
    const page = await ctx.newPage();
    await open(page, latestPath);
    await openPanel(page);
    expect(await textOf(panel(page).locator("summary"))).toBe("Version history (2)");
    expect(await panel(page).locator("li.history-entry").count()).toBe(2);
    await clickTo(
      page,
      entry(page, first.versionId).getByRole("link", { name: "Version 1" }),
      `/b/${bucket.slug}/${first.contentId}/${first.versionId}`,
    );
    await expect.poll(() => control(page, "name").inputValue()).toBe("Old");
    const button = page.locator("form.bucket-form .form-actions button[type=submit]");
    expect(await textOf(button)).toBe("Restore this version");
    await control(page, "name").fill("Old, restored");
    expect(await save(page)).not.toBe(409);
    await waitForPath(page, `${latestPath}?saved`);
    await settle(page);
    expect(await shownErrors(page)).toEqual({});
    expect(await page.getByText("Someone else saved this document", { exact: false }).count()).toBe(0);
    expect(await textOf(page.locator(".notice-success"))).toBe("Saved");
    expect(await control(page, "name").inputValue()).toBe("Old, restored");
    const stored = await storedDocument(server, ctx.cookie, bucket.slug, first.contentId);
    expect(stored.data).toEqual({ name: "Old, restored", rooms: ["East"] });
    await openPanel(page);
    expect(await panel(page).locator("li.history-entry").count()).toBe(3);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("restores a version from the panel's list, keeping the versions in between", async () => {
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const { bucket, first, second, latestPath } = await twoVersions(ctx.user.id);
    const page = await ctx.newPage();
    await open(page, latestPath);
    await openPanel(page);
    expect(await entry(page, second.versionId).getByRole("button").count()).toBe(0); // the latest has nothing to restore
    await submitWith(page, entry(page, first.versionId).getByRole("button", { name: "Restore version 1" }));
    await waitForPath(page, `${latestPath}?restored=1`);
    await settle(page);
    expect(await textOf(page.locator(".notice-success"))).toBe("Version 1 restored");
    // The router is idle once the new document loaded; React renders it in a transition, which a busy machine delays.
    await expect.poll(() => control(page, "name").inputValue(), { timeout: 10_000 }).toBe("Old");
    expect((await storedDocument(server, ctx.cookie, bucket.slug, first.contentId)).data).toEqual({ name: "Old", rooms: ["East"] });
    await openPanel(page);
    expect(await panel(page).locator("li.history-entry .history-open").allTextContents()).toEqual(["Version 3", "Version 2", "Version 1"]);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("compares two chosen versions and shows what changed, field by field (with JavaScript in the panel, without on the compare page)", async () => {
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const { bucket, first, second, latestPath } = await twoVersions(ctx.user.id);
    const page = await ctx.newPage();
    await open(page, latestPath);
    await openPanel(page);
    await entry(page, first.versionId).getByRole("radio", { name: "Compare from version 1" }).check();
    await entry(page, second.versionId).getByRole("radio", { name: "Compare with version 2" }).check();
    const comparePath = `/b/${bucket.slug}/${first.contentId}/compare?a=${first.versionId}&b=${second.versionId}`;
    const compare = panel(page).getByRole("button", { name: "Compare selected versions" });
    const cells = (scope: Locator) =>
      scope
        .locator("tr.diff-row")
        .evaluateAll((elements) => elements.map((row) => [...row.children].map((cell) => cell.textContent.replace(/\s+/g, " ").trim())));
    const changes = [
      ["Name", "Old", "New"],
      ["Rooms › Item 2", "(empty)", "West"],
    ];
    if (javaScriptEnabled) {
      // The comparison opens in the panel; the page (and its form) stays.
      await compare.click();
      const inline = panel(page).locator(".history-inline-compare");
      await expectTextSoon(inline.locator("h3"), "Version 1 compared with version 2");
      expect(await cells(inline)).toEqual(changes);
      expect(pathOf(page)).toBe(latestPath);
      await clickTo(page, inline.getByRole("link", { name: "Open the comparison as a page" }), comparePath);
    } else {
      await Promise.all([
        page.waitForURL(
          (url) =>
            url.pathname === `/b/${bucket.slug}/${first.contentId}/compare` &&
            url.searchParams.get("a") === first.versionId &&
            url.searchParams.get("b") === second.versionId,
        ),
        compare.click(),
      ]);
      await settle(page);
    }
    expect(await textOf(page.locator("main h1"))).toBe("Version 1 compared with version 2");
    expect(await cells(page.locator("main"))).toEqual(changes);
    // From the comparison back to a version.
    await clickTo(
      page,
      page.locator("thead").getByRole("link", { name: "Version 1" }),
      `/b/${bucket.slug}/${first.contentId}/${first.versionId}`,
    );
    await expect.poll(() => control(page, "name").inputValue()).toBe("Old");
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("the compare page without versions offers the choice, the newest against the one before, and compares them", async () => {
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const { bucket, first, second } = await twoVersions(ctx.user.id);
    const page = await ctx.newPage();
    const choosePath = `/b/${bucket.slug}/${first.contentId}/compare`;
    await open(page, choosePath);
    expect(await textOf(page.locator("main h1"))).toBe("Compare two versions");
    expect(await page.getByRole("radio", { name: "Compare from version 1" }).isChecked()).toBe(true);
    expect(await page.getByRole("radio", { name: "Compare with version 2" }).isChecked()).toBe(true);
    await Promise.all([
      page.waitForURL(
        (url) =>
          url.pathname === choosePath && url.searchParams.get("a") === first.versionId && url.searchParams.get("b") === second.versionId,
      ),
      page.getByRole("button", { name: "Compare selected versions" }).click(),
    ]);
    await settle(page);
    await expectTextSoon(page.locator("main h1"), "Version 1 compared with version 2");
    ctx.expectNoErrors();
    await ctx.close();
  });
});
