import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, open } from "../support/browser";
import { contentIdOf, control, fieldBox, save, signedInContext, submitWith } from "../support/content-browser";
import { createTestBucket } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/server";
import { getLatestVersion } from "../../server/content/store";

/*
 * The popup sub-form without JavaScript (server/content/drafts.ts): 'Create on its own page' keeps the form's
 * input, the artist is made on its own page, and its save comes back to the form with the input restored and the
 * new artist selected; the form then saves as usual.
 */

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

describe("popup sub-form without JavaScript", () => {
  it("creates the artist on its own page and returns with the work's input kept and the artist selected", async () => {
    const artists = await createTestBucket(server.db, {
      name: "Artists",
      locales: ["en"],
      jsonSchema: { type: "object", required: ["name"], properties: { name: { type: "string", title: "Name", isNotEmpty: true } } },
    });
    const works = await createTestBucket(server.db, {
      name: "Works",
      locales: ["en"],
      jsonSchema: { type: "object", properties: { title: { type: "string", title: "Title" }, artist: { type: "string", title: "Artist", _ref: artists.collectionName, renderer: "popup" } } },
    });
    const ctx = await signedInContext(browser, server, { javaScriptEnabled: false });
    const page = await ctx.newPage();
    await open(page, `/b/${works.slug}/new`);
    await fieldBox(page, "artist").getByText("No entries").waitFor();
    await control(page, "title").fill("The Starry Night");
    await submitWith(page, fieldBox(page, "artist").getByRole("button", { name: "Create on its own page" }));
    expect(new URL(page.url()).pathname).toBe(`/b/${artists.slug}/new`);
    await page.getByText("After saving you return to the form you came from.").waitFor();

    // A refused save stays on the artist's page, still on its way back.
    expect(await save(page)).toBe(400);
    await control(page, "name").fill("Vincent van Gogh");
    await save(page);
    expect(new URL(page.url()).pathname).toBe(`/b/${works.slug}/new`);
    await page.getByText("Your unsaved input was restored.").waitFor();
    expect(await control(page, "title").inputValue()).toBe("The Starry Night");
    await fieldBox(page, "artist").locator(".popup-current", { hasText: "Vincent van Gogh" }).waitFor();
    const artistId = await control(page, "artist").inputValue();
    expect(artistId).toMatch(/^[0-9a-f-]{36}$/);

    // The work saves with its artist; the popup now edits that artist on its own page.
    await save(page);
    const work = await getLatestVersion(server.db, works.id, contentIdOf(page));
    expect(work!.data).toEqual({ title: "The Starry Night", artist: artistId });
    await fieldBox(page, "artist").getByRole("button", { name: "Edit on its own page" }).waitFor();
    expect(ctx.errors).toEqual([]);
    await ctx.close();
  });
});
