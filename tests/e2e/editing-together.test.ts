import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContent } from "@server/content/store";
import { JS_MODES, launchBrowser, open, textOf } from "@tests/support/browser";
import { control, save, signedInContext, storedDocument } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * Two editors, each in a browser of their own, on one document (docs/architecture.md, "Editing together"): changes to
 * different fields are merged at once and the page says whose it took; changes to the same field show both values,
 * and the editor's choice is what is saved. With JavaScript and without.
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

    // Anna the title, Ben the year: both saved, into one version that has both.
    await control(annasPage, "title").fill("North Sea");
    expect(await save(annasPage)).toBeLessThan(400);
    await control(bensPage, "year").fill("1891");
    expect(await save(bensPage)).toBeLessThan(400);
    await bensPage.getByText(`Merged with ${anna.user.name}'s changes to Title.`).waitFor();
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
});
