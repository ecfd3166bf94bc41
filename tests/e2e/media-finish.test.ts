import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { open, launchBrowser, textOf } from "@tests/support/browser";
import { control, fieldBox, plainText, settle, signedInContext, submitWith } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { get, sameOrigin } from "@tests/support/http";
import { jpegOfSize, pngOfSize, upload, videoOf } from "@tests/support/media-fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The media fields of 'An editor that feels finished' in Chromium, with JavaScript on and off: the video field
 * looks like the others (the player alone is black), the 'Select Thumbnail' dialog fits the window at 1280 and
 * 390 px, the file name shows once, the cropper holds the field's bounds, and crop and thumbnail work without
 * JavaScript inside the edit form.
 */

let server: TestServer;
let browser: Browser;
const dir = mkdtempSync(path.join(tmpdir(), "vitrine-media-finish-"));

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

function fixture(name: string, data: Buffer): string {
  const file = path.join(dir, name);
  writeFileSync(file, data);
  return file;
}

const schemaWith = (properties: Record<string, unknown>) => ({
  type: "object",
  properties: { name: { type: "string", title: "Name" }, ...properties },
});

/**
 * A saved document whose media field holds an uploaded file (through the API, as the browser's upload does),
 * processed to completion: its edit page's path.
 */
async function savedDocumentWith(
  cookie: string,
  field: string,
  kind: "image" | "video",
  property: Record<string, unknown>,
  data: Buffer,
  filename: string,
) {
  const bucket = await createTestBucket(server.db, {
    jsonSchema: schemaWith({ [field]: { type: "string", title: field, ...property } }),
    locales: ["en"],
  });
  const answer = await upload(
    server.url,
    kind,
    cookie,
    { bucket: bucket.slug, uid: "u1", properties: JSON.stringify(property) },
    { data, name: filename },
  );
  expect(answer.status).toBe(200);
  const [media] = (await answer.json()) as Array<{ contentId: string }>;
  const contentId = media!.contentId;
  await expect
    .poll(
      async () =>
        ((await (await get(server.url, `/api/v1/buckets/${kind}/content/${contentId}/latest`, cookie)).json()) as { status: string })
          .status,
      {
        timeout: 90_000,
        interval: 500,
      },
    )
    .toBe("completed");
  const form = new FormData();
  form.append("name", "A document");
  form.append(field, contentId);
  const saved = await fetch(`${server.url}/b/${bucket.slug}/new`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: cookie, ...sameOrigin(server.url) },
    body: form,
  });
  expect(saved.status).toBe(302);
  return { path: new URL(saved.headers.get("location")!, server.url).pathname, contentId, bucket };
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found, "element has a box").not.toBeNull();
  return found!;
}

/** The element's box lies within the container's box and within the viewport. */
async function expectInside(page: Page, element: Locator, container: Locator) {
  const inner = await box(element);
  const outer = await box(container);
  const viewport = page.viewportSize()!;
  const slack = 0.5;
  expect(inner.x, "left").toBeGreaterThanOrEqual(outer.x - slack);
  expect(inner.y, "top").toBeGreaterThanOrEqual(outer.y - slack);
  expect(inner.x + inner.width, "right").toBeLessThanOrEqual(outer.x + outer.width + slack);
  expect(inner.y + inner.height, "bottom").toBeLessThanOrEqual(outer.y + outer.height + slack);
  expect(inner.x, "in the viewport").toBeGreaterThanOrEqual(-slack);
  expect(inner.y + inner.height, "in the viewport").toBeLessThanOrEqual(viewport.height + slack);
  expect(inner.x + inner.width, "in the viewport").toBeLessThanOrEqual(viewport.width + slack);
  expect(await element.isVisible()).toBe(true);
}

describe("with JavaScript", () => {
  it("'Select Thumbnail' fits the window at 1280 and 390 px: the still scales, the carousel and Save/Cancel stay inside", async () => {
    const ctx = await signedInContext(browser, server);
    const property = { _ref: "b-video", minWidth: 320, minHeight: 240, allowCustomStill: true };
    const doc = await savedDocumentWith(
      ctx.cookie,
      "clip",
      "video",
      property,
      videoOf({ width: 1280, height: 720, fps: 25, seconds: 3 }),
      "wide.mp4",
    );
    const page = await ctx.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await open(page, doc.path);
    await fieldBox(page, "clip").getByRole("button", { name: "Select Thumbnail" }).click();
    const dialog = page.locator("dialog.thumb-modal");
    await dialog.waitFor({ state: "visible" });
    expect(await dialog.getByRole("tab").allTextContents()).toEqual(["Select Still", "Custom Still"]);
    const still = dialog.locator(".thumb-carousel img");
    await expect.poll(() => still.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1280);

    for (const size of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(size);
      for (const part of [
        dialog.getByRole("button", { name: "Save" }),
        dialog.getByRole("button", { name: "Cancel" }),
        dialog.getByRole("button", { name: "Previous still" }),
        dialog.getByRole("button", { name: "Next still" }),
        dialog.getByRole("button", { name: "Use this still" }),
        dialog.getByRole("tab", { name: "Custom Still" }),
        still,
      ]) {
        await expectInside(page, part, dialog);
      }
      expect(await still.evaluate((img) => getComputedStyle(img).objectFit)).toBe("contain");
      // Nothing in the dialog is wider than it (no horizontal scroll inside).
      expect(await dialog.evaluate((element) => element.scrollWidth <= element.clientWidth + 1)).toBe(true);
    }
    // The carousel still works at 390 px and Save stores the choice.
    await dialog.getByRole("button", { name: "Next still" }).click();
    expect(await textOf(dialog.locator("figcaption"))).toBe("2 / 5");
    await dialog.getByRole("button", { name: "Use this still" }).click();
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "hidden" });
    await expect
      .poll(
        async () =>
          (
            (await (await get(server.url, `/api/v1/buckets/video/content/${doc.contentId}/latest`, ctx.cookie)).json()) as {
              thumb: unknown;
            }
          ).thumb,
      )
      .toEqual({ index: 1 });
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("the video field is not black and its text readable; the player's box alone is black", async () => {
    const ctx = await signedInContext(browser, server);
    const doc = await savedDocumentWith(
      ctx.cookie,
      "clip",
      "video",
      { _ref: "b-video", minWidth: 320, minHeight: 240 },
      videoOf({ width: 320, height: 240, fps: 25, seconds: 2 }),
      "small.mp4",
    );
    const page = await ctx.newPage();
    await open(page, doc.path);
    const field = fieldBox(page, "clip").locator(".media-field");
    await field.locator(".media-filename").waitFor();
    const colours = await field.evaluate((element) => {
      // The colour behind the field: its own, else the nearest ancestor's that has one.
      let node: Element | null = element;
      let background = "rgba(0, 0, 0, 0)";
      while (node && background === "rgba(0, 0, 0, 0)") {
        background = getComputedStyle(node).backgroundColor;
        node = node.parentElement;
      }
      return { background, text: getComputedStyle(element.querySelector(".media-filename")!).color };
    });
    expect(colours.background).not.toBe("rgb(0, 0, 0)");
    expect(colours.text).not.toBe(colours.background);
    const luminance = (rgb: string) => {
      const [r, g, b] = rgb.match(/\d+/g)!.slice(0, 3).map(Number);
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    expect(Math.abs(luminance(colours.background) - luminance(colours.text))).toBeGreaterThan(100);

    await fieldBox(page, "clip").getByRole("button", { name: "View", exact: true }).click();
    const player = page.locator("dialog.media-player video");
    await player.waitFor({ state: "visible" });
    expect(await player.evaluate((video) => getComputedStyle(video).backgroundColor)).toBe("rgb(0, 0, 0)");
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("shows the file name once after an upload", async () => {
    const bucket = await createTestBucket(server.db, {
      jsonSchema: schemaWith({ photo: { type: "string", title: "Photo", _ref: "b-image" } }),
      locales: ["en"],
    });
    const ctx = await signedInContext(browser, server);
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/new`);
    await fieldBox(page, "photo").locator(".drop-zone").waitFor();
    await fieldBox(page, "photo")
      .locator('input[type="file"]')
      .setInputFiles(fixture("once-only.jpg", await jpegOfSize(1920, 1080)));
    await fieldBox(page, "photo").locator('.upload-item[data-state="done"]').waitFor({ timeout: 20_000 });
    await fieldBox(page, "photo").locator(".media-summary .media-filename").waitFor();
    const text = await fieldBox(page, "photo").innerText();
    expect(text.split("once-only.jpg").length - 1, text).toBe(1);
    expect(await plainText(fieldBox(page, "photo").locator(".upload-item"))).toBe("Uploaded");
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("the cropper cannot make the area smaller than the field's image bounds (no crop bounds given), by mouse or keyboard", async () => {
    const ctx = await signedInContext(browser, server);
    const property = { _ref: "b-image", enableCrop: true, minWidth: 1200, minHeight: 700 };
    const doc = await savedDocumentWith(ctx.cookie, "hero", "image", property, await pngOfSize(1920, 1080), "hero.png");
    const page = await ctx.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await open(page, doc.path);
    await fieldBox(page, "hero").getByRole("button", { name: "Crop", exact: true }).click();
    const modal = page.locator("dialog.crop-modal");
    await modal.waitFor({ state: "visible" });
    expect(await modal.locator(".crop-constraints li").allTextContents()).toEqual(["Minimum width: 1200px", "Minimum height: 700px"]);
    await expect.poll(() => plainText(modal.locator(".crop-size"))).toBe("Crop: 1920 × 1080 px");

    // The mouse drags the corner handle far up and left: the area stops at the bounds.
    const handle = await box(modal.locator(".crop-handle"));
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x - 900, handle.y - 600, { steps: 8 });
    await page.mouse.up();
    expect(await plainText(modal.locator(".crop-size"))).toBe("Crop: 1200 × 700 px");
    // The keyboard cannot go below either.
    await modal.getByRole("button", { name: /Resize the crop area/ }).focus();
    await page.keyboard.press("Shift+ArrowLeft");
    await page.keyboard.press("Shift+ArrowUp");
    expect(await plainText(modal.locator(".crop-size"))).toBe("Crop: 1200 × 700 px");
    await modal.getByRole("button", { name: "Crop", exact: true }).click();
    await modal.waitFor({ state: "detached", timeout: 20_000 });
    await settle(page);
    await expect
      .poll(
        async () =>
          (
            (await (await get(server.url, `/api/v1/buckets/image/content/${doc.contentId}/latest`, ctx.cookie)).json()) as {
              dimensions: unknown;
            }
          ).dimensions,
      )
      .toEqual({ width: 1200, height: 700 });
    ctx.expectNoErrors();
    await ctx.close();
  });
});

describe("without JavaScript", () => {
  it("crops with x, y, width and height inputs: a crop under the bounds is refused under the field, a good one applied, the input kept", async () => {
    const ctx = await signedInContext(browser, server, { javaScriptEnabled: false });
    const property = { _ref: "b-image", enableCrop: true, minWidthCrop: 800, minHeightCrop: 450 };
    const doc = await savedDocumentWith(ctx.cookie, "hero", "image", property, await pngOfSize(1920, 1080), "hero.png");
    const page = await ctx.newPage();
    await open(page, doc.path);
    await control(page, "name").fill("Changed, not saved");
    const fallback = fieldBox(page, "hero").locator("details.crop-fallback");
    await fallback.locator("summary").click();
    expect(await fallback.locator(".crop-constraints li").allTextContents()).toEqual(["Minimum width: 800px", "Minimum height: 450px"]);
    const input = (label: string) => fallback.getByLabel(label, { exact: true });
    expect(await input("Width").inputValue()).toBe("1920");
    await input("Width").fill("600");
    await input("Height").fill("450");
    expect(await submitWith(page, fallback.getByRole("button", { name: "Crop", exact: true }))).toBe(422);
    expect(await textOf(fieldBox(page, "hero").locator(":scope > .field-error"))).toBe(
      "Crop is too narrow (600px), minimum crop width: 800px",
    );
    expect(await control(page, "name").inputValue()).toBe("Changed, not saved");

    // The refusal re-renders the crop inputs open, next to the message.
    expect(await fallback.evaluate((element: HTMLDetailsElement) => element.open)).toBe(true);
    await input("X (from the left)").fill("100");
    await input("Y (from the top)").fill("50");
    await input("Width").fill("960");
    await input("Height").fill("540");
    expect(await submitWith(page, fallback.getByRole("button", { name: "Crop", exact: true }))).toBe(200);
    expect(await fieldBox(page, "hero").locator(":scope > .field-error").count()).toBe(0);
    expect(await control(page, "name").inputValue()).toBe("Changed, not saved");
    expect(await plainText(fieldBox(page, "hero").locator(".media-dimensions"))).toBe("960 × 540");
    expect(await fieldBox(page, "hero").locator("details.crop-fallback summary").innerText()).toBe("Recrop");
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("chooses the thumbnail from radio buttons, the input kept", async () => {
    const ctx = await signedInContext(browser, server, { javaScriptEnabled: false });
    const doc = await savedDocumentWith(
      ctx.cookie,
      "clip",
      "video",
      { _ref: "b-video", minWidth: 320, minHeight: 240 },
      videoOf({ width: 320, height: 240, fps: 25, seconds: 3 }),
      "clip.mp4",
    );
    const page = await ctx.newPage();
    await open(page, doc.path);
    await control(page, "name").fill("Kept while choosing");
    const fallback = fieldBox(page, "clip").locator("details.thumb-fallback");
    await fallback.locator("summary").click();
    const radios = fallback.getByRole("radio");
    expect(await radios.count()).toBe(5);
    expect(await fallback.getByRole("radio", { name: /Still 1/ }).isChecked()).toBe(true);
    await fallback.getByRole("radio", { name: /Still 3/ }).check();
    expect(await submitWith(page, fallback.getByRole("button", { name: "Save thumbnail" }))).toBe(200);
    expect(await control(page, "name").inputValue()).toBe("Kept while choosing");
    expect(
      ((await (await get(server.url, `/api/v1/buckets/video/content/${doc.contentId}/latest`, ctx.cookie)).json()) as { thumb: unknown })
        .thumb,
    ).toEqual({ index: 2 });
    await fieldBox(page, "clip").locator("details.thumb-fallback summary").click();
    expect(await fieldBox(page, "clip").getByRole("radio", { name: "Still 3 (current)" }).isChecked()).toBe(true);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("'Upload' with a refused file shows the message under that field, the input kept", async () => {
    const bucket = await createTestBucket(server.db, {
      jsonSchema: schemaWith({ photo: { type: "string", title: "Photo", _ref: "b-image", minWidth: "HD", minHeight: "HD" } }),
      locales: ["en"],
    });
    const ctx = await signedInContext(browser, server, { javaScriptEnabled: false });
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/new`);
    await control(page, "name").fill("Kept while uploading");
    await fieldBox(page, "photo")
      .locator('input[type="file"]')
      .setInputFiles(fixture("small.png", await pngOfSize(1000, 700)));
    expect(await submitWith(page, fieldBox(page, "photo").getByRole("button", { name: "Upload", exact: true }))).toBe(422);
    expect(await textOf(fieldBox(page, "photo").locator(":scope > .field-error"))).toBe(
      "Image is too narrow (1000px), minimum width: 1920px Image is not high enough (700px), minimum height: 1080px",
    );
    expect(await control(page, "name").inputValue()).toBe("Kept while uploading");
    await ctx.close();
  });
});
