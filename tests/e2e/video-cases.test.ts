import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent, deleteContent, getLatestVersion, saveVersion } from "@server/content/store";
import { insertMedia } from "@server/media/store";
import { createUser } from "@server/accounts/users";
import { JS_MODES, launchBrowser, open } from "@tests/support/browser";
import { contentIdOf, control, fieldBox, save, signedInContext, storedDocument, submitWith } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { videoOf } from "@tests/support/media-fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The video-cases field (spec §2 clip cards, §3 Case item, §7) and the trend select, in Chromium: cases chosen as
 * 220 px clip cards through the picker (a modal with JavaScript, a section of the form without), searched, removed;
 * with JavaScript a new case with its video upload, a case deleted behind the confirm dialog, and the notice when a
 * delete fails.
 */

let server: TestServer;
let browser: Browser;
let cases: Bucket;
let trends: Bucket;
let sessions: Bucket;
const ids = {} as Record<"harbour" | "glass" | "tide" | "light" | "craft", string>;
const files = mkdtempSync(path.join(tmpdir(), "vitrine-cases-"));

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  const owner = await createUser(server.db, {
    name: "Owner",
    email: `owner-${randomUUID()}@example.test`,
    password: "correct horse battery",
    permissions: ["user"],
  });
  cases = await createTestBucket(server.db, {
    name: "Cases",
    jsonSchema: {
      type: "object",
      required: ["title"],
      properties: {
        title: { type: "string", title: "Title" },
        subtitle: { type: "string", title: "Subtitle" },
        thumbnail: { type: "string", title: "Video", _ref: "b-video", minWidth: 320, minHeight: 240 },
      },
    },
  });
  trends = await createTestBucket(server.db, {
    name: "Trends",
    jsonSchema: {
      type: "object",
      properties: { title: { type: "string", title: "Title" }, image: { type: "string", title: "Image", _ref: "b-image" } },
    },
  });
  sessions = await createTestBucket(server.db, {
    name: "Sessions",
    jsonSchema: {
      type: "object",
      required: ["title"],
      properties: {
        title: { type: "string", title: "Title" },
        trend: { type: "string", title: "Trend", _ref: trends.collectionName, renderer: "trend-select" },
        cases: { type: "array", title: "Video cases", renderer: "video-cases", items: { type: "string", _ref: cases.collectionName } },
      },
    },
  });
  const media = (kind: "video" | "image", bucket: Bucket) =>
    insertMedia(server.db, {
      kind,
      originalFilename: `x.${kind === "video" ? "mp4" : "jpg"}`,
      mimetype: kind === "video" ? "video/mp4" : "image/jpeg",
      size: 4096,
      width: 1280,
      height: 720,
      details: kind === "video" ? { stillKeys: [`${randomUUID()}.jpg`], thumb: { index: 0 } } : {},
      bucketId: bucket.id,
      storageKey: `${randomUUID()}.bin`,
      createdBy: owner.id,
    });
  const doc = async (bucket: Bucket, data: Record<string, unknown>) =>
    (await createContent(server.db, bucket.id, data, owner.id)).contentId;
  ids.harbour = await doc(cases, {
    title: "Harbour at dawn",
    subtitle: "Harlingen quay",
    thumbnail: (await media("video", cases)).contentId,
  });
  ids.glass = await doc(cases, { title: "Blowing glass", subtitle: "Leerdam workshop" });
  ids.tide = await doc(cases, { title: "Tide coming in", subtitle: "Mudflats" });
  ids.light = await doc(trends, { title: "Light and water", image: (await media("image", trends)).contentId });
  ids.craft = await doc(trends, { title: "Craft revival" });
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

const chosenCards = (page: Page) => fieldBox(page, "cases").locator("ul.clip-cards > li.clip-card:not(.add-card)");
const chosenTitles = (page: Page) => chosenCards(page).locator(".clip-card-title").allTextContents();

/** Clip cards are exactly 220 px wide (spec §2), wherever they show. */
async function expectCardWidths(page: Page, selector: string) {
  const widths = await page.locator(selector).evaluateAll((cards) => cards.map((card) => card.getBoundingClientRect().width));
  expect(widths.length).toBeGreaterThan(0);
  for (const width of widths) expect(width).toBe(220);
}

describe.each(JS_MODES)("video cases $label", ({ javaScriptEnabled }) => {
  it("chooses cases as clip cards through the picker, searches in it, removes one, and saves", async () => {
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/b/${sessions.slug}/new`);
    await control(page, "title").fill("Morning");
    const add = fieldBox(page, "cases").getByRole("button", { name: "Add case" });
    if (javaScriptEnabled) {
      await add.click();
      const dialog = page.locator("dialog.cases-picker-modal");
      await dialog.locator(".clip-card").first().waitFor();
      await expectCardWidths(page, "dialog.cases-picker-modal .clip-card");
      await dialog.getByLabel("Search cases").fill("harlingen");
      await expect.poll(() => dialog.locator(".clip-card-title").allTextContents()).toEqual(["Harbour at dawn"]);
      await dialog.getByRole("button", { name: "Choose Harbour at dawn" }).click();
      await dialog.getByLabel("Search cases").fill("");
      await dialog.getByRole("button", { name: "Choose Blowing glass" }).click();
      expect(await dialog.getByRole("button", { name: "Choose Blowing glass" }).getAttribute("aria-pressed")).toBe("true");
      await dialog.getByRole("button", { name: "Add selected (2)" }).click();
      await dialog.waitFor({ state: "hidden" });
    } else {
      expect(await submitWith(page, add)).toBe(200);
      const picker = page.locator("section.cases-picker");
      expect(await control(page, "title").inputValue()).toBe("Morning"); // input kept
      await expectCardWidths(page, "section.cases-picker .clip-card");
      await picker.getByLabel("Search cases").fill("harlingen");
      await submitWith(page, picker.getByRole("button", { name: "Search" }));
      expect(await picker.locator(".clip-card-title").allTextContents()).toEqual(["Harbour at dawn"]);
      await picker.getByLabel("Choose Harbour at dawn").check();
      await submitWith(page, picker.getByRole("button", { name: "Add selected" }));
      await submitWith(page, fieldBox(page, "cases").getByRole("button", { name: "Add case" }));
      await page.locator("section.cases-picker").getByLabel("Choose Blowing glass").check();
      await submitWith(page, page.locator("section.cases-picker").getByRole("button", { name: "Add selected" }));
      expect(await page.locator("section.cases-picker").count()).toBe(0);
    }
    expect(await chosenTitles(page)).toEqual(["Harbour at dawn", "Blowing glass"]);
    await expectCardWidths(page, '[data-field="cases"] li.clip-card');
    // The chosen video's still shows on its card.
    expect(await chosenCards(page).first().locator("img").getAttribute("src")).toMatch(/^\/api\/v1\/still\//);

    const remove = chosenCards(page).first().getByRole("button", { name: "Remove Harbour at dawn" });
    if (javaScriptEnabled) await remove.click();
    else await submitWith(page, remove);
    await expect.poll(() => chosenTitles(page)).toEqual(["Blowing glass"]);
    expect(await control(page, "title").inputValue()).toBe("Morning");

    expect(await save(page)).toBeLessThan(400);
    const stored = await storedDocument(server, ctx.cookie, sessions.slug, contentIdOf(page));
    expect(stored.data).toMatchObject({ title: "Morning", cases: [ids.glass] });
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("at 390 px the clip cards keep 220 px and nothing leaves the viewport, picker open", async () => {
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await page.setViewportSize({ width: 390, height: 800 });
    const chosen = (await createContent(server.db, sessions.id, { title: "Narrow", cases: [ids.harbour, ids.glass] }, null)).contentId;
    await open(page, `/b/${sessions.slug}/${chosen}/latest`);
    const add = fieldBox(page, "cases").getByRole("button", { name: "Add case" });
    if (javaScriptEnabled) {
      await add.click();
      await page.locator("dialog.cases-picker-modal .clip-card").first().waitFor();
      await expectCardWidths(page, "dialog.cases-picker-modal .clip-card");
    } else {
      await submitWith(page, add);
      await expectCardWidths(page, "section.cases-picker .clip-card");
    }
    await expectCardWidths(page, '[data-field="cases"] li.clip-card');
    const outside = await page.evaluate(() =>
      [...document.querySelectorAll("body *")]
        .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
        .map((element) => `${element.tagName}.${element.className}`),
    );
    expect(outside).toEqual([]);
    await ctx.close();
  });

  it("a deleted case's card says so, and nothing about a still", async () => {
    const gone = await createContent(server.db, cases.id, { title: "Gone case" }, null);
    await deleteContent(server.db, cases.id, gone.contentId, gone.versionId);
    const session = await createContent(server.db, sessions.id, { title: "With a gone case", cases: [gone.contentId] }, null);
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/b/${sessions.slug}/${session.contentId}/latest`);
    const card = chosenCards(page).first();
    await card.locator(".clip-card-title.missing", { hasText: "This case was deleted" }).waitFor();
    expect(await card.locator(".clip-card-no-still").count()).toBe(0);
    await ctx.close();
  });

  it("the trend select shows each trend's image and title, and saves the chosen trend", async () => {
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/b/${sessions.slug}/new`);
    await control(page, "title").fill("Trendy");
    if (javaScriptEnabled) {
      const button = fieldBox(page, "trend").locator("button.trend-select-button");
      await button.click();
      const list = fieldBox(page, "trend").getByRole("listbox");
      await list.waitFor();
      expect(await list.getByRole("option").locator(".trend-option-label").allTextContents()).toEqual([
        "Pick an option",
        "Craft revival",
        "Light and water",
      ]);
      expect(await list.getByRole("option", { name: "Light and water" }).locator("img").count()).toBe(1);
      // Keyboard: down to the first trend (by title), Enter.
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
      await list.waitFor({ state: "hidden" });
      expect(await button.textContent()).toContain("Craft revival");
      expect(await control(page, "trend").inputValue()).toBe(ids.craft);
      await button.click();
      await fieldBox(page, "trend").getByRole("option", { name: "Light and water" }).click();
      expect(await control(page, "trend").inputValue()).toBe(ids.light);
    } else {
      const select = control(page, "trend");
      expect(await select.locator("option").allTextContents()).toEqual([
        "Pick an option",
        "Craft revival (Draft)",
        "Light and water (Draft)",
      ]);
      await select.selectOption(ids.light);
    }
    expect(await save(page)).toBeLessThan(400);
    const stored = await storedDocument(server, ctx.cookie, sessions.slug, contentIdOf(page));
    expect(stored.data).toMatchObject({ trend: ids.light });
    ctx.expectNoErrors();
    await ctx.close();
  });
});

describe("the picker's cases (JavaScript)", () => {
  it("makes a new case with its video upload, and chooses it", async () => {
    const ctx = await signedInContext(browser, server);
    const page = await ctx.newPage();
    await open(page, `/b/${sessions.slug}/new`);
    await fieldBox(page, "cases").getByRole("button", { name: "Add case" }).click();
    const picker = page.locator("dialog.cases-picker-modal");
    await picker.locator(".clip-card").first().waitFor();
    await picker.getByRole("button", { name: "New case" }).click();
    const form = page.locator("dialog.bucket-form-modal");
    await form.waitFor({ state: "visible" });
    await form.locator('input[name="title"]').fill("Restoring a canvas");
    await form.locator('input[name="subtitle"]').fill("Conservators at work");
    const file = path.join(files, "restoring.mp4");
    writeFileSync(file, videoOf({ width: 320, height: 240, fps: 25, seconds: 2 }));
    await form.locator('[data-field="thumbnail"] .drop-zone').waitFor();
    await form.locator('[data-field="thumbnail"] input[type="file"]').setInputFiles(file);
    // The upload's job progress shows in the field, as for any video field.
    await form
      .locator('[data-field="thumbnail"] .media-summary .media-filename', { hasText: "restoring.mp4" })
      .waitFor({ timeout: 20_000 });
    const saved = page.waitForResponse(
      (response) => response.url().endsWith(`/api/v1/buckets/${cases.slug}/save`) && response.request().method() === "POST",
    );
    await form.getByRole("button", { name: "Submit" }).click();
    expect((await saved).status()).toBe(201);
    await form.waitFor({ state: "hidden" });
    const created = picker.getByRole("button", { name: "Choose Restoring a canvas" });
    await created.waitFor();
    expect(await created.getAttribute("aria-pressed")).toBe("true");
    await picker.getByRole("button", { name: "Add selected (1)" }).click();
    await expect.poll(() => chosenTitles(page)).toEqual(["Restoring a canvas"]);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("the new case's messages are in the editor's interface language (Dutch on an English server)", async () => {
    const ctx = await signedInContext(browser, server, { locale: "nl-NL" });
    const page = await ctx.newPage();
    await open(page, `/b/${sessions.slug}/new`);
    await fieldBox(page, "cases").getByRole("button", { name: "Casus toevoegen" }).click();
    const picker = page.locator("dialog.cases-picker-modal");
    await picker.locator(".clip-card").first().waitFor();
    await picker.getByRole("button", { name: "Nieuwe casus" }).click();
    const form = page.locator("dialog.bucket-form-modal");
    await form.locator('input[name="title"]').waitFor();
    await form.getByRole("button", { name: "Versturen" }).click();
    await form.locator(".field-error", { hasText: "Dit is een verplicht veld" }).waitFor();
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("says so when a new case cannot be saved, and logs it", async () => {
    const ctx = await signedInContext(browser, server);
    const page = await ctx.newPage();
    await open(page, `/b/${sessions.slug}/new`);
    await fieldBox(page, "cases").getByRole("button", { name: "Add case" }).click();
    const picker = page.locator("dialog.cases-picker-modal");
    await picker.locator(".clip-card").first().waitFor();
    await picker.getByRole("button", { name: "New case" }).click();
    const form = page.locator("dialog.bucket-form-modal");
    await form.locator('input[name="title"]').fill("Never saved");
    // The editor loses the cases bucket meanwhile: the save answers 404.
    await server.db.query("UPDATE users SET buckets = $1 WHERE id = $2", [[sessions.slug, trends.slug], ctx.user.id]);
    await form.getByRole("button", { name: "Submit" }).click();
    await form.locator(".form-error", { hasText: "The case could not be saved. Try again in a bit." }).waitFor();
    expect(await form.isVisible()).toBe(true);
    expect(ctx.errors.filter((error) => error.includes("Error submitting form"))).toHaveLength(1);
    await ctx.close();
  });

  it("deletes a case behind the confirm dialog, and says so when the delete fails", async () => {
    const owner = (await getLatestVersion(server.db, cases.id, ids.tide))!;
    const doomed = (await createContent(server.db, cases.id, { title: "Doomed case", subtitle: "To be deleted" }, null)).contentId;
    const contested = (await createContent(server.db, cases.id, { title: "Contested case", subtitle: "Edited meanwhile" }, null)).contentId;
    expect(owner).toBeTruthy();
    const ctx = await signedInContext(browser, server);
    const page = await ctx.newPage();
    await open(page, `/b/${sessions.slug}/new`);
    await fieldBox(page, "cases").getByRole("button", { name: "Add case" }).click();
    const picker = page.locator("dialog.cases-picker-modal");
    const card = (title: string) => picker.locator(".clip-card", { has: page.locator(".clip-card-title", { hasText: title }) });
    await card("Doomed case").waitFor();

    // Cancel keeps it.
    await card("Doomed case").getByRole("button", { name: "Delete Doomed case" }).click();
    const confirm = page.getByRole("alertdialog");
    expect(await confirm.locator("h2").textContent()).toBe("Delete case");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await confirm.waitFor({ state: "hidden" });
    expect(await card("Doomed case").count()).toBe(1);

    // Confirm deletes it (DELETE …/content/{contentId}/{_id}).
    await card("Doomed case").getByRole("button", { name: "Delete Doomed case" }).click();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await card("Doomed case").waitFor({ state: "detached" });
    expect(await getLatestVersion(server.db, cases.id, doomed)).toBeNull();

    // Someone saved the case after the picker loaded it: the delete is refused (409), logged and shown.
    const latest = (await getLatestVersion(server.db, cases.id, contested))!;
    await saveVersion(server.db, {
      bucketId: cases.id,
      contentId: contested,
      baseVersionId: latest.versionId,
      data: { title: "Contested case", subtitle: "Changed" },
      userId: null,
    });
    await card("Contested case").getByRole("button", { name: "Delete Contested case" }).click();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await picker.locator(".cases-notice", { hasText: "The case could not be deleted." }).waitFor();
    expect(await getLatestVersion(server.db, cases.id, contested)).not.toBeNull();
    expect(ctx.errors.filter((error) => error.includes("Error deleting case"))).toHaveLength(1);
    await ctx.close();
  });
});
