import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContent } from "@server/content/store";
import { JS_MODES, launchBrowser, open, textOf, waitForHydration } from "@tests/support/browser";
import { control, formValues, save, shownErrors, signedInContext, storedDocument } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * Content versions: every save is a new version on top of the one the page started from; a save
 * from a version someone else has since replaced is refused (409) with a clear message, the input kept, and
 * a way to the newer version. Older versions open with a link to the latest; saving one restores it.
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

const MERGE_CONFLICT = "saved this document while you were editing it.";
const CONFLICT =
  "Someone else saved this document after you opened it. Your changes are still in the form: open the newer version in another tab, apply your changes there, or save again to make yours the newest.";

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  it("refuses the second of two saves from the same version, keeps its input, links to the newer version, and saves on top when asked", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: SCHEMA });
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const first = await createContent(server.db, bucket.id, { name: "Start", rooms: ["a"] }, ctx.user.id);
    const path = `/b/${bucket.slug}/${first.contentId}/latest`;
    const [pageA, pageB] = [await ctx.newPage(), await ctx.newPage()];
    await open(pageA, path);
    await open(pageB, path);

    // A saves twice in a row: the second save starts from A's own first save, so no conflict.
    await control(pageA, "name").fill("From A");
    await save(pageA);
    expect(await textOf(pageA.locator(".notice-success"))).toBe("Saved");
    await control(pageA, "name").fill("From A again");
    await save(pageA);
    expect(await shownErrors(pageA)).toEqual({});
    expect(await textOf(pageA.locator(".notice-success"))).toBe("Saved");
    const afterA = await storedDocument(server, ctx.cookie, bucket.slug, first.contentId);
    expect(afterA.data.name).toBe("From A again");

    // B still started from the first version.
    await control(pageB, "name").fill("From B");
    await control(pageB, "rooms[0]").fill("b");
    expect(await save(pageB)).toBe(409);
    // Both changed the name: the merge (server/content/merge-save.ts) shows both values and asks which to keep.
    expect(await textOf(pageB.locator(".form-error p").first())).toContain(MERGE_CONFLICT);
    const conflict = pageB.locator('.merge-conflict[data-merge-field="name"]');
    expect(await textOf(conflict.locator("dd").first())).toBe("From B");
    expect(await textOf(conflict.locator("dd").nth(1))).toBe("From A again");
    expect(await formValues(pageB)).toMatchObject({ name: "From B", "rooms[0]": "b" });
    expect(await pageB.locator(".notice-success").count()).toBe(0);
    expect((await storedDocument(server, ctx.cookie, bucket.slug, first.contentId)).data.name).toBe("From A again"); // nothing overwritten

    // Saving again, keeping mine (the default), makes B's input the newest version, on top of A's.
    await save(pageB);
    expect(await textOf(pageB.locator(".notice-success"))).toBe("Saved");
    const afterB = await storedDocument(server, ctx.cookie, bucket.slug, first.contentId);
    expect(afterB.data).toEqual({ name: "From B", rooms: ["b"] });
    expect(afterB.versionId).not.toBe(afterA.versionId);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("opens an older version with a link to the latest; saving from it restores it on top of the latest, no conflict", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: SCHEMA });
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const first = await createContent(server.db, bucket.id, { name: "Old" }, ctx.user.id);
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/${first.contentId}/latest`);
    await control(page, "name").fill("New");
    await save(page);
    await open(page, `/b/${bucket.slug}/${first.contentId}/${first.versionId}`);
    expect(await control(page, "name").inputValue()).toBe("Old");
    expect(await textOf(page.locator(".notice-warning"))).toBe(
      "You are looking at an older version of this document. Open the latest version",
    );
    await page.getByRole("link", { name: "Open the latest version" }).click();
    await page.waitForURL((url) => url.pathname === `/b/${bucket.slug}/${first.contentId}/latest`);
    await waitForHydration(page);
    // With JavaScript the URL changes before React renders the latest version's form.
    await expect.poll(() => control(page, "name").inputValue()).toBe("New");
    // Nobody else saved since: saving the older version's page restores it (its button says so) as the newest.
    await open(page, `/b/${bucket.slug}/${first.contentId}/${first.versionId}`);
    await control(page, "name").fill("Old again");
    expect(await save(page)).not.toBe(409);
    expect(await page.getByText(CONFLICT).count()).toBe(0);
    expect((await storedDocument(server, ctx.cookie, bucket.slug, first.contentId)).data.name).toBe("Old again");
    ctx.expectNoErrors();
    await ctx.close();
  });
});
