import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JS_MODES, launchBrowser, open, runsScripts, textOf } from "@tests/support/browser";
import {
  bucketForm,
  contentIdOf,
  control,
  fieldBox,
  plainText,
  save,
  settle,
  signedInContext,
  storedDocument,
  submitWith,
} from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { createTestUser, get, sameOrigin, signIn } from "@tests/support/http";
import { readdirSync } from "node:fs";
import { jpegOfSize, pngOfSize, videoOf, wavOf } from "@tests/support/media-fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * Image, video and file fields in the browser (spec §2, §4, §5): uploads through the API with
 * JavaScript, through the multipart edit form without it; progress, polling, view, download, delete, crop.
 */

let server: TestServer;
let browser: Browser;
const fixtureDir = mkdtempSync(path.join(tmpdir(), "vitrine-media-e2e-"));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const MEDIA_SCHEMA = {
  type: "object",
  required: ["name"],
  properties: {
    name: { type: "string", title: "Name" },
    photo: { type: "string", title: "Photo", _ref: "b-image" },
    clip: { type: "string", title: "Clip", _ref: "b-video", minWidth: 320, minHeight: 240 },
    doc: { type: "string", title: "Document", _ref: "b-file" },
  },
};

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

/** Writes a fixture to disk under its name (the file chooser takes paths and keeps the name). */
function fixture(name: string, data: Buffer): string {
  const file = path.join(fixtureDir, name);
  writeFileSync(file, data);
  return file;
}

/** The field's file input: the drop zone's (JavaScript) or the form's plain one (without). */
const fileInput = (page: Page, name: string) => fieldBox(page, name).locator('input[type="file"]');

/** The value the form will save for a media field. */
const storedValue = (page: Page, name: string) => control(page, name).inputValue();

/** The field's own error text (under the field). */
async function errorUnder(page: Page, name: string): Promise<string> {
  return textOf(fieldBox(page, name).locator(":scope > .field-error"));
}

/** Chooses a file; with JavaScript the upload starts at once, without it the form posts it on Save. */
async function choose(page: Page, name: string, file: string) {
  // With scripts, the drop zone's input: the plain one is replaced once the form has hydrated (after the page).
  if (runsScripts(page)) await fieldBox(page, name).locator(".drop-zone").waitFor();
  await fileInput(page, name).setInputFiles(file);
}

/** With JavaScript: waits until the field holds an uploaded media content (its filename shows). */
async function waitForUploaded(page: Page, name: string, filename: string) {
  await expect
    .poll(() => plainText(fieldBox(page, name).locator(".media-summary .media-filename")).catch(() => null), { timeout: 20_000 })
    .toBe(filename);
  expect(await storedValue(page, name)).toMatch(UUID);
}

async function newDocumentPage(javaScriptEnabled: boolean, schema: Record<string, unknown> = MEDIA_SCHEMA, locale?: string) {
  const bucket = await createTestBucket(server.db, { jsonSchema: schema, locales: ["en"] });
  const ctx = await signedInContext(browser, server, { javaScriptEnabled, locale });
  const page = await ctx.newPage();
  await open(page, `/b/${bucket.slug}/new`);
  return { bucket, ctx, page };
}

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  it("uploads an image, stores its contentId in the document and shows it again, viewable", async () => {
    const { bucket, ctx, page } = await newDocumentPage(javaScriptEnabled);
    expect(await bucketForm(page).getAttribute("enctype")).toBe("multipart/form-data");
    // Spec §5: the requirements footnote (default minimum HD).
    expect(await plainText(fieldBox(page, "photo").locator(".media-requirements"))).toContain("Resolution: at least HD (1920×1080)");
    if (javaScriptEnabled)
      expect(await textOf(fieldBox(page, "photo").locator(".drop-zone"))).toBe("Drag your image here / Browse to image");

    await control(page, "name").fill("With a photo");
    await choose(page, "photo", fixture("harbour.jpg", await jpegOfSize(1920, 1080)));
    if (javaScriptEnabled) {
      await waitForUploaded(page, "photo", "harbour.jpg");
      expect(await textOf(fieldBox(page, "photo").locator(".upload-item"))).toContain("Uploaded");
      // View: the image whole in a modal, then closed with Escape.
      await fieldBox(page, "photo").getByRole("button", { name: "View", exact: true }).click();
      const preview = page.locator("dialog.media-preview");
      await preview.locator("img").waitFor({ state: "visible" });
      await expect.poll(() => preview.locator("img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1920);
      await page.keyboard.press("Escape");
      await preview.waitFor({ state: "detached" });
    }
    expect(await save(page)).toBeLessThan(400);
    const contentId = contentIdOf(page);
    const { data } = await storedDocument(server, ctx.cookie, bucket.slug, contentId);
    expect(data.name).toBe("With a photo");
    expect(String(data.photo)).toMatch(UUID);

    // The saved page shows the media (server-rendered without JavaScript) with a working view link.
    await expect
      .poll(() => plainText(fieldBox(page, "photo").locator(".media-filename")).catch(() => null), { timeout: 10_000 })
      .toBe("harbour.jpg");
    expect(await storedValue(page, "photo")).toBe(data.photo);
    const src = await fieldBox(page, "photo").locator("img.media-thumb").getAttribute("src");
    const viewed = await get(server.url, src!, ctx.cookie);
    expect(viewed.status).toBe(200);
    expect(viewed.headers.get("content-type")).toBe("image/jpeg");
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("shows a too small image's bounds message under the field and keeps the rest of the input", async () => {
    const { page, ctx } = await newDocumentPage(javaScriptEnabled);
    await control(page, "name").fill("Keep me");
    await choose(page, "photo", fixture("small.png", await pngOfSize(1280, 720)));
    if (javaScriptEnabled) {
      await expect
        .poll(() => plainText(fieldBox(page, "photo").locator(".upload-item")).catch(() => null), { timeout: 20_000 })
        .toBe("Error uploading image small.png");
    } else {
      expect(await save(page)).toBe(422);
      expect(new URL(page.url()).pathname).toMatch(/\/new$/);
    }
    expect(await errorUnder(page, "photo")).toBe(
      "Image is too narrow (1280px), minimum width: 1920px Image is not high enough (720px), minimum height: 1080px",
    );
    expect(await control(page, "name").inputValue()).toBe("Keep me");
    expect(await storedValue(page, "photo")).toBe("");
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("uploads a video and follows its jobs: progress label while processing, completed afterwards", async () => {
    const { page, ctx, bucket } = await newDocumentPage(javaScriptEnabled);
    await control(page, "name").fill("With a clip");
    await choose(page, "clip", fixture("clip.mp4", videoOf({ width: 320, height: 240, fps: 25, seconds: 8 })));
    const label = fieldBox(page, "clip").locator(".job-progress .media-progress-label");
    if (javaScriptEnabled) {
      await waitForUploaded(page, "clip", "clip.mp4");
      // Spec §4: while jobs are new or processing, the average progress and the running job's label.
      expect(["Converting video...", "Extracting thumbnails from video..."]).toContain(await textOf(label, 10_000));
      // Polling every 2 s ends at completed: the progress bar goes, View plays the web rendition.
      await fieldBox(page, "clip").locator('[data-status="completed"]').waitFor({ timeout: 90_000 });
      expect(await label.count()).toBe(0);
      await fieldBox(page, "clip").getByRole("button", { name: "View", exact: true }).click();
      const player = page.locator("dialog.media-player");
      await player.locator("video").waitFor({ state: "visible" });
      expect(await player.locator(".playback-rate").allTextContents()).toEqual(["0.7×", "1×", "1.3×", "1.5×", "1.7×"]);
      await player.getByRole("button", { name: "1.5×" }).click();
      expect(await player.locator("video").evaluate((video: HTMLVideoElement) => video.playbackRate)).toBe(1.5);
      await player.getByRole("button", { name: "Close" }).last().click();
      expect(await save(page)).toBeLessThan(400);
    } else {
      expect(await save(page)).toBeLessThan(400);
      // After the save the page shows the processing state; reloading follows the jobs to completion.
      expect(["Converting video...", "Extracting thumbnails from video..."]).toContain(await textOf(label));
      await expect
        .poll(
          async () => {
            await page.reload();
            return fieldBox(page, "clip").locator(".media-field").getAttribute("data-status");
          },
          { timeout: 90_000, interval: 2000 },
        )
        .toBe("completed");
    }
    const { data } = await storedDocument(server, ctx.cookie, bucket.slug, contentIdOf(page));
    expect(String(data.clip)).toMatch(UUID);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("uploads a file with a download link and an audio player for WAV, then deletes it", async () => {
    const { page, ctx, bucket } = await newDocumentPage(javaScriptEnabled);
    await control(page, "name").fill("With a file");
    await choose(page, "doc", fixture("tone.wav", wavOf(1)));
    if (javaScriptEnabled) await waitForUploaded(page, "doc", "tone.wav");
    expect(await save(page)).toBeLessThan(400);
    const first = await storedDocument(server, ctx.cookie, bucket.slug, contentIdOf(page));
    expect(String(first.data.doc)).toMatch(UUID);

    await expect
      .poll(() => plainText(fieldBox(page, "doc").locator(".media-filename")).catch(() => null), { timeout: 10_000 })
      .toBe("tone.wav");
    expect(await fieldBox(page, "doc").locator("audio[controls]").count()).toBe(1);
    const download = fieldBox(page, "doc").getByRole("link", { name: "Download" });
    const answer = await get(server.url, (await download.getAttribute("href"))!, ctx.cookie);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-disposition")).toMatch(/^attachment; filename="tone\.wav"/);

    // Delete clears the value (without JavaScript a submit button that re-renders); saving stores that.
    const deleteButton = fieldBox(page, "doc").getByRole("button", { name: "Delete", exact: true });
    if (javaScriptEnabled) await deleteButton.click();
    else expect(await submitWith(page, deleteButton)).toBe(200);
    expect(await storedValue(page, "doc")).toBe("");
    expect(await fieldBox(page, "doc").locator(".media-filename").count()).toBe(0);
    expect(await control(page, "name").inputValue()).toBe("With a file");
    expect(await save(page)).toBeLessThan(400);
    const second = await storedDocument(server, ctx.cookie, bucket.slug, contentIdOf(page));
    expect(second.data.doc).toBeUndefined();
    expect(second.data.name).toBe("With a file");
    ctx.expectNoErrors();
    await ctx.close();
  });
});

describe("without JavaScript", () => {
  it("'Upload' posts the chosen file and shows it without saving the document", async () => {
    const { page, ctx } = await newDocumentPage(false);
    await choose(page, "photo", fixture("upload-only.jpg", await jpegOfSize(1920, 1080)));
    expect(await submitWith(page, fieldBox(page, "photo").getByRole("button", { name: "Upload", exact: true }))).toBe(200);
    expect(new URL(page.url()).pathname).toMatch(/\/new$/);
    expect(await storedValue(page, "photo")).toMatch(UUID);
    expect(await plainText(fieldBox(page, "photo").locator(".media-filename"))).toBe("upload-only.jpg");
    // No validation ran: the required name is not reported yet.
    expect(await fieldBox(page, "name").locator(".field-error").count()).toBe(0);
    await ctx.close();
  });
});

describe("with JavaScript", () => {
  it("shows 'Verifying...', then 'Uploading...' with the bytes sent, then done", async () => {
    const { page, ctx } = await newDocumentPage(true);
    // Record every state the upload item passes through, with the progress bar's value.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => {
        const item = document.querySelector('[data-field="photo"] .upload-item');
        if (!item) return;
        const bar = item.querySelector("progress");
        const label = item.querySelector(".media-progress-label")?.textContent ?? "";
        const entry = `${item.getAttribute("data-state")}|${label}${bar ? `:${bar.value}/${bar.max}` : ""}`;
        if (seen[seen.length - 1] !== entry) seen.push(entry);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    // A slow uplink, so that the upload takes a few seconds and reports progress on the way.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 64 * 1024,
    });
    const png = await pngOfSize(1920, 1080);
    expect(png.length).toBeGreaterThan(150 * 1024); // about three seconds at 64 kB/s
    await choose(page, "photo", fixture("noise.png", png));
    await waitForUploaded(page, "photo", "noise.png");
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(seen[0]).toBe("new|Verifying...");
    const prefix = "uploading|Uploading...:";
    const partial = seen.filter((entry) => entry.startsWith(prefix)).map((entry) => entry.slice(prefix.length).split("/").map(Number));
    expect(
      partial.some(([loaded, total]) => loaded! > 0 && loaded! < total!),
      seen.join(", "),
    ).toBe(true);
    expect(seen[seen.length - 1]).toBe("done|Uploaded");
    await ctx.close();
  });

  it("works with the keyboard and in Dutch", async () => {
    const { page, ctx } = await newDocumentPage(true, MEDIA_SCHEMA, "nl-NL");
    expect(await textOf(fieldBox(page, "photo").locator(".drop-zone"))).toBe("Sleep je afbeelding hierheen / Blader naar afbeelding");
    const browse = fieldBox(page, "photo").getByRole("button", { name: "Blader naar afbeelding" });
    // Locator.press focuses the button and presses Enter on it in one step (a re-render in between cannot take the focus).
    const [chooser] = await Promise.all([page.waitForEvent("filechooser"), browse.press("Enter")]);
    await chooser.setFiles(fixture("keyboard.jpg", await jpegOfSize(1920, 1080)));
    await waitForUploaded(page, "photo", "keyboard.jpg");
    const upload = fieldBox(page, "photo").getByRole("button", { name: "Uploaden", exact: true });
    expect(await upload.count()).toBe(1);
    await fieldBox(page, "photo").getByRole("button", { name: "Verwijderen", exact: true }).press("Enter");
    expect(await storedValue(page, "photo")).toBe("");
    await ctx.close();
  });

  it("forceCrop opens 'Crop Image' after the upload, with the constraints and the crop size, and cannot be cancelled", async () => {
    const schema = {
      type: "object",
      properties: {
        hero: { type: "string", title: "Hero", _ref: "b-image", enableCrop: true, forceCrop: true, minWidthCrop: 800, maxWidthCrop: 1600 },
      },
    };
    const { page, ctx } = await newDocumentPage(true, schema);
    await choose(page, "hero", fixture("crop.jpg", await jpegOfSize(1920, 1080)));
    const modal = page.locator("dialog.crop-modal");
    await modal.waitFor({ state: "visible", timeout: 20_000 });
    expect(await textOf(modal.locator("h2"))).toBe("Crop Image");
    expect(await modal.locator(".crop-constraints li").allTextContents()).toEqual(["Minimum width: 800px", "Maximum width: 1600px"]);
    await expect.poll(() => plainText(modal.locator(".crop-size"))).toBe("Crop: 1600 × 1080 px");
    const image = modal.locator(".cropper-image");
    expect((await image.boundingBox())!.height).toBeLessThanOrEqual(500);
    // No way out but cropping: no Cancel, no close button, Escape does nothing.
    expect(await modal.getByRole("button", { name: "Cancel" }).count()).toBe(0);
    expect(await modal.getByRole("button", { name: "Close" }).count()).toBe(0);
    await page.keyboard.press("Escape");
    expect(await modal.isVisible()).toBe(true);
    // The keyboard resizes (the corner handle) within the bounds, and moves the area.
    await modal.getByRole("button", { name: /Resize the crop area/ }).focus();
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    expect(await plainText(modal.locator(".crop-size"))).toBe("Crop: 1580 × 1080 px");
    await page.keyboard.press("Shift+ArrowLeft");
    expect(await plainText(modal.locator(".crop-size"))).toBe("Crop: 1530 × 1080 px");
    for (let i = 0; i < 30; i++) await page.keyboard.press("Shift+ArrowLeft");
    expect(await plainText(modal.locator(".crop-size"))).toBe("Crop: 800 × 1080 px");

    const cropAvailable = (await get(server.url, "/api/v1/media/image/crop/x", ctx.cookie)).status !== 404;
    if (cropAvailable) {
      await modal.getByRole("button", { name: "Crop", exact: true }).click();
      await modal.waitFor({ state: "detached", timeout: 20_000 });
      await settle(page);
      expect(await fieldBox(page, "hero").getByRole("button", { name: "Recrop" }).count()).toBe(1);
    }
    await ctx.close();
  });
});

describe("the edit form's multipart post over HTTP", () => {
  async function postForm(slug: string, cookie: string, parts: Array<[string, string | Blob, string?]>) {
    const form = new FormData();
    for (const [name, value, filename] of parts) {
      if (typeof value === "string") form.append(name, value);
      else form.append(name, value, filename);
    }
    return fetch(`${server.url}/b/${slug}/new`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie, ...sameOrigin(server.url) },
      body: form,
    });
  }
  const temporaryFiles = () => readdirSync(server.media.storage.tmpDir);

  it("streams a file larger than the 1 MiB form limit into the media store and saves the document", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: MEDIA_SCHEMA, locales: ["en"] });
    const user = await createTestUser(server.db, { permissions: ["user"] });
    const cookie = await signIn(server.url, user.email, user.password);
    const big = Buffer.concat([await jpegOfSize(1920, 1080), Buffer.alloc(1_500_000, 7)]); // a JPEG with trailing bytes
    const response = await postForm(bucket.slug, cookie, [
      ["name", "Streamed"],
      ["__media_file.doc", new Blob([new Uint8Array(big)]), "big.bin"],
    ]);
    expect(response.status).toBe(302);
    const contentId = /\/b\/[^/]+\/([0-9a-f-]{36})\/latest/.exec(response.headers.get("location") ?? "")![1]!;
    const { data } = await storedDocument(server, cookie, bucket.slug, contentId);
    const media = await (await get(server.url, `/api/v1/buckets/file/content/${String(data.doc)}/latest`, cookie)).json();
    expect(media).toMatchObject({ originalFilename: "big.bin", size: big.length });
    expect(temporaryFiles()).toEqual([]);
  });

  it("refuses text fields over 1 MiB (413), a file in a field that is not a media field (400), and a file over its limit under the field", async () => {
    const schema = {
      ...MEDIA_SCHEMA,
      properties: { ...MEDIA_SCHEMA.properties, doc: { type: "string", title: "Document", _ref: "b-file", maxFilesize: 5000 } },
    };
    const bucket = await createTestBucket(server.db, { jsonSchema: schema, locales: ["en"] });
    const user = await createTestUser(server.db, { permissions: ["user"] });
    const cookie = await signIn(server.url, user.email, user.password);
    expect((await postForm(bucket.slug, cookie, [["name", "x".repeat(1024 * 1024 + 10)]])).status).toBe(413);
    expect((await postForm(bucket.slug, cookie, [["__media_file.name", new Blob(["x".repeat(2000)]), "a.txt"]])).status).toBe(400);
    const tooLarge = await postForm(bucket.slug, cookie, [
      ["name", "Kept"],
      ["__media_file.doc", new Blob([new Uint8Array(Buffer.alloc(200_000, 65))]), "large.txt"],
    ]);
    expect(tooLarge.status).toBe(422);
    const html = await tooLarge.text();
    expect(html).toContain("The file is too large: the maximum is 4.88 kB.");
    expect(html).toMatch(/name="name"[^>]*value="Kept"|value="Kept"[^>]*name="name"/);
    expect(temporaryFiles()).toEqual([]);
  });
});

describe("a file chosen before the page's JavaScript has loaded", () => {
  it("is uploaded once the form hydrates, not lost with the plain input the drop zone replaces", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: MEDIA_SCHEMA, locales: ["en"] });
    const ctx = await signedInContext(browser, server);
    const page = await ctx.newPage();
    // Hold the page's scripts back: the user sees (and uses) the server-rendered form first.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`/b/${bucket.slug}/new`, { waitUntil: "domcontentloaded" });
    await page.locator('input[type="file"][name="__media_file.photo"]').setInputFiles(fixture("early.jpg", await jpegOfSize(1920, 1080)));
    release();
    await waitForUploaded(page, "photo", "early.jpg");
    expect(ctx.errors).toEqual([]);
    await ctx.close();
  });
});
