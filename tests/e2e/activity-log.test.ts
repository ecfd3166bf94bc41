import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JS_MODES, clickTo, expectTextSoon, launchBrowser, newContext, open, signInTo } from "@tests/support/browser";
import { createContent } from "@server/content/store";
import { createTestBucket } from "@tests/support/fixtures";
import { createTestUser } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/* The activity log on /settings in the browser (issue 36): an admin follows a document's row to its page; JavaScript on and off. */

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

let counter = 0;
const unique = (label: string) => `${label} ${++counter}x${Date.now().toString(36)}`;

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  it("an admin opens the log and follows a document's link to the version it names", async () => {
    const admin = await createTestUser(server.db, { name: "Ada Admin", permissions: ["user", "admin"] });
    const bucket = await createTestBucket(server.db, { name: "Log Paintings" });
    const title = unique("Zeegezicht");
    const { contentId, versionId } = await createContent(server.db, bucket.id, { title }, admin.id);
    const ctx = await newContext(browser, server.url, { javaScriptEnabled });
    const page = await ctx.newPage();
    await signInTo(page, admin.email, admin.password);

    await open(page, "/settings");
    const row = page.locator("table.activity-table tbody tr").filter({ hasText: title });
    await expectTextSoon(row.locator("td").nth(1), "Ada Admin");
    await expectTextSoon(row.locator("td").nth(2), `Document created ${title} in Log Paintings`);
    await clickTo(page, row.getByRole("link", { name: title }), `/b/${bucket.slug}/${contentId}/${versionId}`);
    // The document's page, with its title in the form.
    await expect
      .poll(() => page.locator("main input").evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value)))
      .toContain(title);
    ctx.expectNoErrors();
    await ctx.close();
  });
});
