import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, open, textOf } from "@tests/support/browser";
import { settle, signedInContext } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";
import { createContent, getLatestVersion } from "@server/content/store";

/* A bucket's overview in the browser: the confirm dialog (spec §2 reusable dialogs) with JavaScript. */

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

describe("the overview's confirm dialog (JavaScript)", () => {
  it("opens from a row's Delete, closes on Cancel without deleting, and deletes on confirm", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: { type: "object", properties: { name: { type: "string" } } } });
    const keep = await createContent(server.db, bucket.id, { name: "Keeper" }, null);
    const doomed = await createContent(server.db, bucket.id, { name: "Doomed" }, null);
    const ctx = await signedInContext(browser, server);
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}`);
    const row = page.locator("tr", { hasText: "Doomed" });
    const dialog = page.getByRole("alertdialog", { name: "Delete document" });

    await row.getByRole("link", { name: "Delete" }).click();
    await dialog.waitFor({ state: "visible" });
    expect(await textOf(dialog.locator("p"))).toContain("Delete “Doomed” and all its versions?");
    await dialog.getByRole("link", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    await settle(page);
    expect(new URL(page.url()).searchParams.has("delete")).toBe(false);
    expect(await getLatestVersion(server.db, bucket.id, doomed.contentId)).not.toBeNull();

    await row.getByRole("link", { name: "Delete" }).click();
    await dialog.waitFor({ state: "visible" });
    await dialog.getByRole("button", { name: "Delete" }).click();
    await page.locator("tr", { hasText: "Doomed" }).waitFor({ state: "detached" });
    await settle(page);
    expect(await getLatestVersion(server.db, bucket.id, doomed.contentId)).toBeNull();
    expect(await getLatestVersion(server.db, bucket.id, keep.contentId)).not.toBeNull();
    expect(await page.locator("tr", { hasText: "Keeper" }).count()).toBe(1);
    ctx.expectNoErrors();
    await ctx.close();
  });
});

describe("the overview's row links (JavaScript)", () => {
  it("navigate in the page, without loading a new document, and a modified click is left to the browser", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: { type: "object", properties: { name: { type: "string" } } } });
    const doc = await createContent(server.db, bucket.id, { name: "Walked to" }, null);
    const ctx = await signedInContext(browser, server);
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}`);
    // A full page load would forget this.
    await page.evaluate(() => Object.assign(window, { stayedInPage: true }));
    const row = page.locator("tr", { hasText: "Walked to" });

    await row.getByRole("link", { name: "Delete" }).click();
    await page.getByRole("alertdialog", { name: "Delete document" }).waitFor({ state: "visible" });
    await page.goBack();
    await settle(page);

    await row.getByRole("link", { name: "Walked to" }).click();
    await page.waitForURL((url) => url.pathname === `/b/${bucket.slug}/${doc.contentId}/latest`);
    await page.locator('form [name="name"]').waitFor({ state: "visible" });
    await settle(page);
    expect(await page.evaluate(() => (window as unknown as { stayedInPage?: boolean }).stayedInPage)).toBe(true);

    await page.goBack();
    await settle(page);
    const opened = page.context().waitForEvent("page");
    await page
      .locator("tr", { hasText: "Walked to" })
      .getByRole("link", { name: "Duplicate" })
      .click({ modifiers: ["ControlOrMeta"] });
    const tab = await opened;
    await tab.waitForLoadState();
    expect(new URL(tab.url()).pathname).toContain(`/b/${bucket.slug}/`);
    expect(new URL(page.url()).pathname).toBe(`/b/${bucket.slug}`);
    await tab.close();
    ctx.expectNoErrors();
    await ctx.close();
  });
});
