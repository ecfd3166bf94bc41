import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContent } from "@server/content/store";
import { expectTextSoon, JS_MODES, launchBrowser, newContext, open, textOf, waitForHydration, waitForPath } from "@tests/support/browser";
import { signedInContext } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { pngOfSize, upload } from "@tests/support/media-fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * Shareable previews in the browser, with JavaScript and without: an editor makes a link from a document's page
 * (the share panel), a fresh anonymous browser opens it and sees the values and the image, the editor revokes it on
 * /shareables (after a confirmation) and the link answers 404.
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

const SCHEMA = {
  type: "object",
  properties: {
    title: { type: "string", title: "Title" },
    year: { type: "integer", title: "Year" },
    picture: { type: "string", title: "Picture", _ref: "b-image" },
  },
};

/** The image on the page has loaded (a broken one has no natural width). */
async function imageLoaded(page: Page) {
  await page.waitForFunction(
    () => {
      const image = document.querySelector<HTMLImageElement>("img.shared-image");
      return image !== null && image.complete && image.naturalWidth > 0;
    },
    undefined,
    { timeout: 10_000 },
  );
}

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  it("makes a link from a document, opens it without signing in, revokes it, and the link is gone", async () => {
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const bucket = await createTestBucket(server.db, { jsonSchema: SCHEMA });
    const uploaded = await upload(
      server.url,
      "image",
      ctx.cookie,
      { bucket: bucket.slug, uid: "u1" },
      { data: await pngOfSize(1920, 1080), name: "dunes.png", type: "image/png" },
    );
    expect(uploaded.status).toBe(200);
    const [image] = (await uploaded.json()) as Array<{ contentId: string }>;
    const title = `Dunes ${javaScriptEnabled ? "js" : "html"}`;
    const document = await createContent(server.db, bucket.id, { title, year: 1911, picture: image!.contentId }, ctx.user.id);
    const editPath = `/b/${bucket.slug}/${document.contentId}/latest`;

    const page = await ctx.newPage();
    await open(page, editPath);
    const panel = page.locator("details.share-panel");
    await panel.locator("summary").click();
    await panel.getByLabel("Expires after").selectOption("30");
    await panel.getByRole("button", { name: "Make link" }).click();
    const linkInput = page.locator("[data-shareable-link]");
    await linkInput.waitFor({ state: "visible", timeout: 10_000 });
    // With JavaScript the link shows in the panel; without, the form's answer is /shareables with the link.
    if (javaScriptEnabled) {
      expect(new URL(page.url()).pathname).toBe(editPath);
      expect(await panel.getByRole("button", { name: "Copy link" }).count()).toBe(1);
    } else {
      expect(new URL(page.url()).pathname).toBe("/shareables");
    }
    const link = await linkInput.inputValue();
    expect(link).toMatch(new RegExp(`^${server.url}/shareables/[A-Za-z0-9_-]{43}$`));

    // A fresh browser, nobody signed in.
    const visitor = await newContext(browser, server.url, { javaScriptEnabled });
    const seen = await visitor.newPage();
    const response = await open(seen, link);
    expect(response?.status()).toBe(200);
    expect(await textOf(seen.locator("h1"))).toBe(title);
    expect(await textOf(seen.locator('[data-field="year"] dd'))).toBe("1911");
    expect(await textOf(seen.locator('[data-field="title"] dt'))).toBe("Title");
    await imageLoaded(seen);
    expect(await seen.locator("header.top-bar .user-menu, header.top-bar .bucket-links").count()).toBe(0);

    // Revoke on /shareables, after the confirmation.
    await open(page, "/shareables");
    const row = page.locator("tr[data-shareable]", { hasText: title });
    expect(await textOf(row)).toContain("Active");
    await row.getByRole("link", { name: "Revoke" }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.waitFor({ state: "visible" });
    expect(await textOf(dialog)).toContain(title);
    await dialog.getByRole("button", { name: "Revoke link" }).click();
    await page.waitForURL((url) => url.pathname === "/shareables" && url.searchParams.has("revoked"));
    await expect.poll(() => textOf(page.locator("tr[data-shareable]", { hasText: title }))).toContain("Revoked");

    const gone = await seen.goto(link);
    expect(gone?.status()).toBe(404);
    expect(await textOf(seen.locator(".error-message"))).toBe("This page could not be found");
    await waitForPath(seen, new URL(link).pathname);

    ctx.expectNoErrors();
    visitor.expectNoErrors();
    await visitor.close();
    await ctx.close();
  });
});

describe("the share panel's check in the browser", () => {
  it("loads with the panel's first opening and then answers without asking the server", async () => {
    const ctx = await signedInContext(browser, server, { javaScriptEnabled: true });
    const bucket = await createTestBucket(server.db, { jsonSchema: SCHEMA });
    const document = await createContent(server.db, bucket.id, { title: "Checked here", year: 1912 }, ctx.user.id);
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/${document.contentId}/latest`);
    await waitForHydration(page);
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(request.url());
    });
    const panel = page.locator("details.share-panel");
    const check = page.waitForResponse((response) => /\/share-validation-[^/]+\.js$/.test(new URL(response.url()).pathname));
    await panel.locator("summary").click();
    expect((await check).status()).toBe(200);
    // The module has loaded: wait for the browser to have run it before submitting.
    await page.waitForLoadState("networkidle");
    await panel.getByLabel("Expires after").selectOption("date");
    await panel.getByRole("button", { name: "Make link" }).click();
    await expectTextSoon(panel.locator(".field-error"), "Choose a date.");
    expect(posts).toEqual([]);
    ctx.expectNoErrors();
    await ctx.close();
  });
});
