import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContent, saveVersion } from "@server/content/store";
import { addToRelease, createRelease } from "@server/content/release-editing";
import { JS_MODES, launchBrowser, newContext, open, textOf, waitForHydration } from "@tests/support/browser";
import { signedInContext } from "@tests/support/content-browser";
import { createTestBucket, decode } from "@tests/support/fixtures";
import { postForm } from "@tests/support/http";
import { pngOfSize, upload } from "@tests/support/media-fixtures";
import { TEST_PUBLISHER } from "@tests/support/publishing";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * A shareable link to a release in the browser, with JavaScript and without: a visitor who is not signed in opens it
 * and sees the release's name, a list of its documents (each a link to its section), and each document at its release
 * version with its image loaded through the link.
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
    picture: { type: "string", title: "Picture", _ref: "b-image" },
  },
};

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
  it("opens a release link without signing in: the release's name and its documents at their release version", async () => {
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const bucket = await createTestBucket(server.db, { jsonSchema: SCHEMA });
    const uploaded = await upload(
      server.url,
      "image",
      ctx.cookie,
      { bucket: bucket.slug, uid: "u1" },
      { data: await pngOfSize(1920, 1080), name: "hall.png", type: "image/png" },
    );
    expect(uploaded.status).toBe(200);
    const [image] = (await uploaded.json()) as Array<{ contentId: string }>;
    const mode = javaScriptEnabled ? "js" : "html";
    const hall = await createContent(server.db, bucket.id, { title: `Main hall ${mode}`, picture: image!.contentId }, ctx.user.id);
    const label = await createContent(server.db, bucket.id, { title: `Label ${mode}` }, ctx.user.id);
    await saveVersion(server.db, {
      bucketId: bucket.id,
      contentId: label.contentId,
      baseVersionId: label.versionId,
      userId: ctx.user.id,
      data: { title: `Label ${mode}, a later draft` },
    });
    const release = await createRelease(server.db, TEST_PUBLISHER, { name: `Spring opening ${mode}` });
    await addToRelease(server.db, TEST_PUBLISHER, release.id, { bucketId: bucket.id, contentId: hall.contentId });
    await addToRelease(server.db, TEST_PUBLISHER, release.id, {
      bucketId: bucket.id,
      contentId: label.contentId,
      versionId: label.versionId,
    });
    // The form the release page holds (ReleaseShareForm) posts this; its answer shows the link once.
    const made = await postForm(server.url, "/shareables", { intent: "create", expiry: "7", releaseId: release.id }, ctx.cookie);
    expect(made.status).toBe(201);
    const link = decode(
      /value="([^"]+)"[^>]*data-shareable-link|data-shareable-link="true" value="([^"]+)"/
        .exec(await made.text())!
        .slice(1)
        .find(Boolean)!,
    );
    expect(link).toMatch(new RegExp(`^${server.url}/shareables/[A-Za-z0-9_-]{43}$`));

    const visitor = await newContext(browser, server.url, { javaScriptEnabled });
    const seen = await visitor.newPage();
    const response = await open(seen, link);
    expect(response?.status()).toBe(200);
    if (javaScriptEnabled) await waitForHydration(seen);
    expect(await textOf(seen.locator("h1"))).toBe(`Spring opening ${mode}`);
    expect(await textOf(seen.locator(".shared-release-state"))).toContain("Not published yet");
    expect(await seen.locator("section.shared-release-item h2").allTextContents()).toEqual([`Main hall ${mode}`, `Label ${mode}`]);
    expect(await textOf(seen.locator(`[data-document="${label.contentId}"] [data-field="title"] dd`))).toBe(`Label ${mode}`);
    await imageLoaded(seen);
    // The list of documents jumps to each one's section.
    await seen
      .locator(".shared-release-contents")
      .getByRole("link", { name: `Label ${mode}` })
      .click();
    await seen.waitForURL((url) => url.hash === `#document-${label.contentId}`);
    expect(await seen.locator("header.top-bar .user-menu, header.top-bar .bucket-links").count()).toBe(0);

    ctx.expectNoErrors();
    visitor.expectNoErrors();
    await visitor.close();
    await ctx.close();
  });
});
