import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContent } from "@server/content/store";
import { JS_MODES, launchBrowser, open, textOf } from "@tests/support/browser";
import { control, save, signedInContext, storedDocument } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * Two editors, each in a browser of their own, on one document (docs/architecture.md, "Editing together"): each
 * sees the other is there (live with JavaScript, as of page load without); changes to different fields are merged at
 * once and the page says whose it took; changes to the same field show both values, and the editor's choice is what
 * is saved; a document deleted while open keeps the editor's input. With JavaScript and without.
 */

let server: TestServer;
let browser: Browser;

const SCHEMA = {
  type: "object",
  required: ["title"],
  properties: {
    title: { type: "string", title: "Title" },
    year: { type: "integer", title: "Year" },
  },
};

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

describe.each(JS_MODES)("two editors on one document $label", ({ javaScriptEnabled }) => {
  it("merge changes to different fields at once; the same field shows both values, and the choice is saved", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: SCHEMA, locales: ["en"] });
    const [anna, ben] = [
      await signedInContext(browser, server, { javaScriptEnabled }),
      await signedInContext(browser, server, { javaScriptEnabled }),
    ];
    const doc = await createContent(server.db, bucket.id, { title: "Sea", year: 1890 }, anna.user.id);
    const path = `/b/${bucket.slug}/${doc.contentId}/latest`;
    const stored = async () => (await storedDocument(server, anna.cookie, bucket.slug, doc.contentId)).data;
    const [annasPage, bensPage] = [await anna.newPage(), await ben.newPage()];
    await open(annasPage, path);
    await open(bensPage, path);
    // Each sees the other: Ben at once (Anna was here when his page loaded); Anna live with JavaScript, without it
    // at her next page load.
    const here = (page: typeof annasPage, name: string) => page.locator(`.presence [data-presence-user="${name}"]`);
    await here(bensPage, anna.user.name).waitFor();
    if (!javaScriptEnabled) await open(annasPage, path);
    await here(annasPage, ben.user.name).waitFor();
    if (javaScriptEnabled) {
      // Ben's unsaved change shows on Anna's page, and goes when he undoes it.
      await control(bensPage, "year").fill("1900");
      await here(annasPage, ben.user.name).getByText("has unsaved changes").waitFor();
      await control(bensPage, "year").fill("1890");
      await here(annasPage, ben.user.name).getByText("has unsaved changes").waitFor({ state: "detached" });
    }

    // Anna the title, Ben the year: both saved, into one version that has both.
    await control(annasPage, "title").fill("North Sea");
    expect(await save(annasPage)).toBeLessThan(400);
    await control(bensPage, "year").fill("1891");
    expect(await save(bensPage)).toBeLessThan(400);
    await bensPage.getByText(`Merged with ${anna.user.name}'s changes to Title.`).waitFor();
    if (javaScriptEnabled) {
      // Anna's page heard of Ben's save while she had it open: her next save merges.
      await annasPage.getByText(`${ben.user.name} saved a newer version.`).waitFor();
    }
    expect(await stored()).toEqual({ title: "North Sea", year: 1891 });

    // Both the title: Ben's save shows both titles; he takes Anna's, and that is saved.
    await open(annasPage, path);
    await open(bensPage, path);
    await control(annasPage, "title").fill("Anna's title");
    expect(await save(annasPage)).toBeLessThan(400);
    await control(bensPage, "title").fill("Ben's title");
    expect(await save(bensPage)).toBe(409);
    const conflict = bensPage.locator('.merge-conflict[data-merge-field="title"]');
    await conflict.waitFor();
    expect(await textOf(conflict.locator("dd").first())).toBe("Ben's title");
    expect(await textOf(conflict.locator("dd").nth(1))).toBe("Anna's title");
    expect(await stored()).toEqual({ title: "Anna's title", year: 1891 });
    await conflict.getByLabel("Take theirs").check();
    expect(await save(bensPage)).toBeLessThan(400);
    await expect.poll(stored).toEqual({ title: "Anna's title", year: 1891 });
    anna.expectNoErrors();
    ben.expectNoErrors();
    await anna.close();
    await ben.close();
  });

  it("a document deleted while it is open: the page says so, and its save keeps the input for a new document", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: SCHEMA, locales: ["en"] });
    const [anna, ben] = [
      await signedInContext(browser, server, { javaScriptEnabled }),
      await signedInContext(browser, server, { javaScriptEnabled }),
    ];
    const doc = await createContent(server.db, bucket.id, { title: "Harbour", year: 1900 }, anna.user.id);
    const annasPage = await anna.newPage();
    await open(annasPage, `/b/${bucket.slug}/${doc.contentId}/latest`);
    await control(annasPage, "title").fill("Harbour at night");
    const bensPage = await ben.newPage();
    await open(bensPage, `/b/${bucket.slug}?delete=${doc.contentId}`);
    await bensPage.getByRole("alertdialog", { name: "Delete document" }).getByRole("button", { name: "Delete" }).click();
    await bensPage.waitForURL(/\?deleted/);
    if (javaScriptEnabled) await annasPage.getByText("Someone else deleted this document while you had it open.").waitFor();
    expect(await save(annasPage)).toBeLessThan(400);
    await annasPage.getByText("Someone else deleted the document you were editing.").waitFor();
    expect(new URL(annasPage.url()).pathname).toBe(`/b/${bucket.slug}/new`);
    expect(await control(annasPage, "title").inputValue()).toBe("Harbour at night");
    expect(await control(annasPage, "year").inputValue()).toBe("1900");
    expect(await save(annasPage)).toBeLessThan(400);
    await annasPage.waitForURL(/\/latest\?saved/);
    anna.expectNoErrors();
    ben.expectNoErrors();
    await anna.close();
    await ben.close();
  });
});
