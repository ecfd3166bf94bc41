import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, open, textOf } from "../support/browser";
import { settle, signedInContext } from "../support/content-browser";
import { createTestBucket } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/server";
import { createContent, getLatestVersion } from "../../server/content/store";

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
