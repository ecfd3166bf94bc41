import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContent } from "@server/content/store";
import { JS_MODES, launchBrowser, open, textOf } from "@tests/support/browser";
import { control, settle, signedInContext, storedDocument } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * Enter in a text field saves the document: the form's first submit button is a hidden Save
 * (app/components/form/default-submit.tsx), not the first list, step or remove button of the fields.
 */

let server: TestServer;
let browser: Browser;

// The step buttons (−, +) and the list's remove buttons all come before the text field and the Save button.
const SCHEMA = {
  type: "object",
  properties: {
    count: { type: "integer", title: "Count" },
    rooms: { type: "array", title: "Rooms", items: { type: "string", title: "Room" } },
    name: { type: "string", title: "Name" },
  },
};

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  it("saves on Enter in a text field, and leaves the list's rows and the number as they were", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: SCHEMA });
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const first = await createContent(server.db, bucket.id, { count: 5, rooms: ["North", "South"], name: "Before" }, ctx.user.id);
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/${first.contentId}/latest`);

    await control(page, "name").fill("After Enter");
    const posted = page.waitForResponse((response) => response.request().method() === "POST", { timeout: 15_000 });
    await control(page, "name").press("Enter");
    expect((await posted).status()).toBeLessThan(400);
    await page.waitForLoadState("load");
    await settle(page);

    expect(await textOf(page.locator(".notice-success"))).toContain("Saved");
    const stored = await storedDocument(server, ctx.cookie, bucket.slug, first.contentId);
    expect(stored.data).toEqual({ count: 5, rooms: ["North", "South"], name: "After Enter" });
    ctx.expectNoErrors();
    await ctx.close();
  });
});
