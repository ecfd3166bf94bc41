import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, open, textOf } from "@tests/support/browser";
import { control, fieldBox, signedInContext } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { get } from "@tests/support/http";
import { pngOfSize, videoOf } from "@tests/support/media-fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The video field's 'Select Thumbnail' dialog (spec §2, §5): a carousel of the stills the job made, and with
 * custom stills allowed the 'Custom Still' tab, where a still smaller than the video asks 'Incorrect Size'.
 */

let server: TestServer;
let browser: Browser;
const dir = mkdtempSync(path.join(tmpdir(), "vitrine-thumb-e2e-"));

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

describe("Select Thumbnail", () => {
  it("picks a still from the carousel, and a custom still after the 'Incorrect Size' question", async () => {
    const bucket = await createTestBucket(server.db, {
      jsonSchema: {
        type: "object",
        properties: { clip: { type: "string", title: "Clip", _ref: "b-video", minWidth: 320, minHeight: 240, allowCustomStill: true } },
      },
      locales: ["en"],
    });
    const ctx = await signedInContext(browser, server);
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/new`);
    const clip = path.join(dir, "clip.mp4");
    writeFileSync(clip, videoOf({ width: 320, height: 240, fps: 25, seconds: 4 }));
    await fieldBox(page, "clip").locator(".drop-zone").waitFor(); // hydrated: the drop zone's input, not the plain one
    await fieldBox(page, "clip").locator('input[type="file"]').setInputFiles(clip);
    await fieldBox(page, "clip").locator('[data-status="completed"]').waitFor({ timeout: 90_000 });
    const contentId = await control(page, "clip").inputValue();
    const latestThumb = async () =>
      (await (await get(server.url, `/api/v1/buckets/video/content/${contentId}/latest`, ctx.cookie)).json()).thumb;
    expect(await latestThumb()).toEqual({ index: 0 });

    // The carousel: the second still becomes the thumb.
    await fieldBox(page, "clip").getByRole("button", { name: "Select Thumbnail" }).click();
    const dialog = page.locator("dialog.thumb-modal");
    await dialog.waitFor({ state: "visible" });
    expect(await textOf(dialog.locator("h2"))).toBe("Select Thumbnail");
    expect(await dialog.getByRole("tab").allTextContents()).toEqual(["Select Still", "Custom Still"]);
    expect(await textOf(dialog.locator("figcaption"))).toBe("1 / 5");
    await dialog.getByRole("button", { name: "Next still" }).click();
    expect(await textOf(dialog.locator("figcaption"))).toBe("2 / 5");
    await dialog.getByRole("button", { name: "Use this still" }).click();
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "hidden" });
    await expect.poll(latestThumb).toEqual({ index: 1 });

    // A custom still smaller than the video: 'Incorrect Size' first; Cancel keeps the old choice.
    const still = path.join(dir, "still.png");
    writeFileSync(still, await pngOfSize(160, 120));
    await fieldBox(page, "clip").getByRole("button", { name: "Select Thumbnail" }).click();
    await dialog.getByRole("tab", { name: "Custom Still" }).click();
    await dialog.locator('input[type="file"]').setInputFiles(still);
    const question = dialog.locator('[role="alertdialog"]');
    expect(await textOf(question.locator("h3"))).toBe("Incorrect Size");
    expect(await textOf(question.locator("p"))).toBe(
      "The still you are trying to upload is smaller then the resolution video file. Are you sure this is ok?",
    );
    await question.getByRole("button", { name: "Cancel" }).click();
    await question.waitFor({ state: "hidden" });
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await latestThumb()).toEqual({ index: 1 });

    // OK: the custom still becomes the thumb.
    await fieldBox(page, "clip").getByRole("button", { name: "Select Thumbnail" }).click();
    await dialog.getByRole("tab", { name: "Custom Still" }).click();
    await dialog.locator('input[type="file"]').setInputFiles(still);
    await question.getByRole("button", { name: "OK" }).click();
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "hidden" });
    await expect.poll(latestThumb).toEqual({ isCustom: true });
    ctx.expectNoErrors();
    await ctx.close();
  });
});

/*
 * The Dutch interface (issue 36 item 13): the spec quotes these texts in English; a Dutch browser gets them in Dutch,
 * an English one the spec's words (above). The home page's title too.
 */
describe("in Dutch (Accept-Language: nl)", () => {
  it("the video field's button, 'Select Thumbnail' with its tabs and the 'Incorrect Size' question are Dutch", async () => {
    const bucket = await createTestBucket(server.db, {
      jsonSchema: {
        type: "object",
        properties: { clip: { type: "string", title: "Clip", _ref: "b-video", minWidth: 320, minHeight: 240, allowCustomStill: true } },
      },
      locales: ["nl"],
    });
    const ctx = await signedInContext(browser, server, { locale: "nl-NL" });
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/new`);
    const clip = path.join(dir, "clip-nl.mp4");
    writeFileSync(clip, videoOf({ width: 320, height: 240, fps: 25, seconds: 2 }));
    await fieldBox(page, "clip").locator(".drop-zone").waitFor();
    await fieldBox(page, "clip").locator('input[type="file"]').setInputFiles(clip);
    await fieldBox(page, "clip").locator('[data-status="completed"]').waitFor({ timeout: 90_000 });

    await fieldBox(page, "clip").getByRole("button", { name: "Thumbnail kiezen" }).click();
    const dialog = page.locator("dialog.thumb-modal");
    await dialog.waitFor({ state: "visible" });
    expect(await textOf(dialog.locator("h2"))).toBe("Thumbnail kiezen");
    expect(await dialog.getByRole("tab").allTextContents()).toEqual(["Still kiezen", "Eigen still"]);
    const still = path.join(dir, "still-nl.png");
    writeFileSync(still, await pngOfSize(160, 120));
    await dialog.getByRole("tab", { name: "Eigen still" }).click();
    await dialog.locator('input[type="file"]').setInputFiles(still);
    const question = dialog.locator('[role="alertdialog"]');
    expect(await textOf(question.locator("h3"))).toBe("Onjuist formaat");
    expect(await textOf(question.locator("p"))).toBe(
      "De still die je probeert te uploaden is kleiner dan de resolutie van het videobestand. Weet je zeker dat dit goed is?",
    );
    await question.getByRole("button", { name: "Annuleren" }).click();
    await question.waitFor({ state: "hidden" });
    ctx.expectNoErrors();
    await ctx.close();
  });

  it.each([
    ["nl-NL", "Inhoud"],
    ["en-US", "Content"],
  ])("the home page's title for %s is %s, with JavaScript and without", async (locale, title) => {
    for (const javaScriptEnabled of [true, false]) {
      const ctx = await signedInContext(browser, server, { locale, javaScriptEnabled });
      const page = await ctx.newPage();
      await open(page, "/");
      expect(await textOf(page.locator("main h1"))).toBe(title);
      ctx.expectNoErrors();
      await ctx.close();
    }
  });
});
