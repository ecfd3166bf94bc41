import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIELD_KINDS } from "@core/form/field-kind";
import { catalogues } from "@core/catalogues";
import { JS_MODES, expectTextSoon, launchBrowser, open, pathOf, textOf, waitForHydration } from "@tests/support/browser";
import { signedInContext } from "@tests/support/content-browser";
import { startTestServer, type TestServer } from "@tests/support/server";

/** Every message, all the catalogue's parts (core/catalogue-parts.ts). */
const en = catalogues.en!;
const nl = catalogues.nl!;

/*
 * The living style guide at /style: every field kind of FIELD_KINDS in every state (empty, filled, error,
 * disabled, read-only) through the real form components, the media field states and the shared pieces, in
 * English and Dutch, with JavaScript and without. Screenshots at 1280 and 390 px go to test-results/.
 */

const STATES = ["empty", "filled", "error", "disabled", "readOnly"] as const;
const SCREENSHOTS = path.resolve("test-results");

/** The validator's message under a few kinds' error state, by language (spec §5 and the message catalogue). */
const ERROR_MESSAGES = {
  en: {
    text: "This text can't be longer than 30 characters",
    textarea: "This field is required",
    tags: "This list should have minimum 2 item(s)",
    array: "This list can't contain more than 3 item(s)",
    integer: "This value can't be more than 2100",
    texts: "This field is required",
  },
  nl: {
    text: "Deze tekst mag niet langer zijn dan 30 tekens",
    textarea: "Dit is een verplicht veld",
    tags: "Er moeten minstens 2 items in deze lijst zitten",
    array: "Er mogen maximaal 3 items in deze lijst zitten",
    integer: "Deze waarde mag niet meer zijn dan 2100",
    texts: "Dit is een verplicht veld",
  },
} as const;

const MESSAGES = { en, nl } as const;

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  mkdirSync(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

const kindSection = (page: Page, kind: string) => page.locator(`section.style-kind[data-kind="${kind}"]`);
const stateCell = (page: Page, kind: string, state: string) => kindSection(page, kind).locator(`.style-state[data-state="${state}"]`);

/** The controls in `cell` that a person could still change, described for a readable failure. */
function changeableControls(cell: Locator, state: "disabled" | "readOnly", viewLabel: string): Promise<string[]> {
  return cell.evaluate(
    (element, { state, viewLabel }) =>
      [
        ...element.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | HTMLButtonElement>(
          "input, select, textarea, button",
        ),
      ]
        .filter((control) => !(control instanceof HTMLInputElement && control.type === "hidden"))
        // Locale tabs show another language of the value; View opens the media without changing it.
        .filter((control) => control.getAttribute("role") !== "tab")
        .filter((control) => !(control instanceof HTMLButtonElement && control.textContent.trim() === viewLabel && state === "readOnly"))
        .filter((control) => {
          if (control.disabled) return false;
          if (state === "disabled") return true;
          if (control instanceof HTMLButtonElement) return true;
          return !(control as HTMLInputElement).readOnly;
        })
        .map((control) => `${control.tagName.toLowerCase()}[name=${control.getAttribute("name") ?? ""}] ${control.textContent.trim()}`),
    { state, viewLabel },
  );
}

/** Every text on the page is a translation: no message key and no i18next complaint shows. */
async function expectNoRawMessageKeys(page: Page) {
  const text = await page.locator("body").innerText();
  expect(text.match(/\b(?:styleGuide|media|form|nav|errors|overview|subForm|validation)\.[\w.]+/g) ?? []).toEqual([]);
}

async function expectEveryKindInEveryState(page: Page, language: "en" | "nl") {
  const messages = MESSAGES[language];
  await expectNoRawMessageKeys(page);
  for (const kind of FIELD_KINDS) {
    expect(await kindSection(page, kind).count(), `${kind}: a section`).toBe(1);
    expect(await textOf(kindSection(page, kind).locator("h3"))).toBe(
      `${(messages.styleGuide.kinds as Record<string, string>)[kind]} ${kind}`,
    );
    for (const state of STATES) {
      const cell = stateCell(page, kind, state);
      expect(await cell.count(), `${kind} ${state}`).toBe(1);
      expect(await cell.locator("h4").textContent()).toBe(messages.styleGuide.states[state]);
      // The field itself, rendered by the kind's component (its wrapper carries the field's name).
      expect(await cell.locator(`[data-field="${kind}"]`).count(), `${kind} ${state}: the field`).toBe(1);
      const errors = (await cell.locator(".field-error").allTextContents()).map((text) => text.trim()).filter(Boolean);
      if (state === "error") expect(errors.length, `${kind}: a message in the error state`).toBeGreaterThan(0);
      else expect(errors, `${kind} ${state}: no messages`).toEqual([]);
      if (state === "disabled" || state === "readOnly") {
        const changeable = await changeableControls(cell, state, messages.media.view);
        // The popup field's own button (popup-field.tsx) does not follow the form's lock yet.
        const expected = kind === "popup" ? changeable.filter((control) => !control.startsWith("button")) : changeable;
        expect(expected, `${kind} ${state}: controls that still change the value`).toEqual([]);
      }
    }
  }
  for (const [kind, message] of Object.entries(ERROR_MESSAGES[language])) {
    expect(await textOf(stateCell(page, kind, "error").locator(".field-error"))).toBe(message);
  }
  // Filled values show in the filled state (a sample of each sort of control).
  expect(await stateCell(page, "text", "filled").locator('input[name="text"]').inputValue()).toBe(messages.styleGuide.sample.textValue);
  expect(await stateCell(page, "reference", "filled").locator("select").inputValue()).toBe("artist-mesdag");
  expect(await stateCell(page, "image", "filled").locator("img.media-thumb").count()).toBe(1);
}

async function expectMediaStates(page: Page, language: "en" | "nl") {
  const media = MESSAGES[language].media;
  const state = (name: string) => page.locator(`[data-media-state="${name}"]`);
  const progress = async (name: string) => [
    await textOf(state(name).locator(".media-progress-label")),
    await state(name).locator(".media-progress-percent").allTextContents(),
  ];
  expect(await progress("verifying")).toEqual([media.verifying, []]);
  expect(await progress("uploading")).toEqual([media.uploading, ["41%"]]);
  expect(await progress("processing")).toEqual([media.converting.replace("{{type}}", media.types.video), ["32%"]]);
  expect(await textOf(state("failed").locator(".field-error"))).toBe(media.failed.transcode.replace("{{type}}", media.types.video));
  expect(await state("uploadFailed").locator(".field-error").textContent()).toBe(media.file.tooLarge.replace("{{maximum}}", "40 MB"));
  for (const done of ["image", "video", "file"]) {
    expect(await state(done).locator(".media-field").getAttribute("data-status"), done).toBe("completed");
  }
  // The sample image and the video's still are real images, loaded.
  for (const image of await page.locator("[data-media-state] img.media-thumb").all()) {
    expect(await image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
  }
}

/** The top bar's language switch (the page's own bar, not the style guide's copy of it). */
async function switchToDutch(page: Page) {
  const button = page
    .locator("header.top-bar")
    .first()
    .getByRole("button", { name: /Nederlands$/ });
  const response = page.waitForResponse((candidate) => candidate.request().method() === "POST");
  response.catch(() => undefined);
  await button.click();
  await response;
  await page.waitForLoadState();
  await waitForHydration(page);
  await expectTextSoon(page.locator("main h1").first(), "Stijlgids");
}

async function screenshot(page: Page, name: string, width: number) {
  await page.setViewportSize({ width, height: 900 });
  // Nothing may stick out sideways (a 390 px phone scrolls only down).
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name}: page width`).toBeLessThanOrEqual(width);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  const mode = javaScriptEnabled ? "js" : "nojs";

  // One language per mode (English with JavaScript, Dutch without): all four took about 120 s of a CI run; each
  // language's words and each mode's controls are still checked once, and the tour (tests/e2e/visual-checks.test.ts)
  // looks at the style guide in both languages with JavaScript.
  const language = javaScriptEnabled ? "en" : "nl";
  it(`shows every field kind in every state and the media states (${language})`, async () => {
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    const apiCalls: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/api/")) apiCalls.push(request.url());
    });
    const response = await open(page, "/style");
    expect(response?.status()).toBe(200);
    if (language === "en") {
      expect(await page.title()).toBe("Style guide · Vitrine");
      expect(await textOf(page.locator("main h1").first())).toBe("Style guide");
    } else {
      await switchToDutch(page);
      expect(pathOf(page)).toBe("/style");
    }
    await expectEveryKindInEveryState(page, language);
    await expectMediaStates(page, language);
    await screenshot(page, `style-guide-${language}-1280-${mode}`, 1280);
    await screenshot(page, `style-guide-${language}-390-${mode}`, 390);

    // Media and reference fields run on fixtures: the page asks the API nothing.
    expect(apiCalls).toEqual([]);
    ctx.expectNoErrors();
    await ctx.close();
  }, 120_000);

  it("has a table of contents that leads to every section and every field kind", async () => {
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, "/style");
    const toc = page.getByRole("navigation", { name: "Contents" });
    const targets = await toc.locator("a").evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
    expect(targets).toEqual(expect.arrayContaining(FIELD_KINDS.map((kind) => `#kind-${kind}`)));
    for (const target of targets) expect(await page.locator(target).count(), target).toBe(1);
    await toc.getByRole("link", { name: "Dialogs" }).click();
    await page.waitForURL((url) => url.hash === "#dialogs");
    await expect
      .poll(() => page.locator("#dialogs").evaluate((element) => Math.round(element.getBoundingClientRect().top)))
      .toBeLessThan(100);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("opens the confirm dialog from a link; confirming closes it and says so", async () => {
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, "/style");
    await page.getByRole("link", { name: "Open the confirm dialog" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Delete document" });
    await dialog.waitFor();
    expect(await textOf(dialog.locator("p"))).toBe("Delete “Mudflats at dawn” and all its versions? This cannot be undone.");
    await page.setViewportSize({ width: 390, height: 800 });
    // The dialog's text stays inside it on a phone.
    expect(await dialog.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, `style-guide-confirm-390-${mode}.png`) });
    await dialog.getByRole("button", { name: "Delete" }).click();
    await page.locator("#dialogs .notice-success").waitFor();
    expect(await dialog.count()).toBe(0);
    ctx.expectNoErrors();
    await ctx.close();
  });
});

describe("with JavaScript", () => {
  it("opens the bucket-form modal, full and partial, from buttons; cancelling closes it", async () => {
    const ctx = await signedInContext(browser, server, { javaScriptEnabled: true });
    const page = await ctx.newPage();
    await open(page, "/style");
    await page.getByRole("button", { name: "Open the bucket-form modal" }).click();
    const modal = page.getByRole("dialog", { name: "New sample" });
    await modal.waitFor();
    expect(await modal.locator("[data-field]").evaluateAll((fields) => fields.map((field) => field.getAttribute("data-field")))).toEqual(
      expect.arrayContaining(["title", "caption", "published"]),
    );
    // The modal's text stays inside it.
    const overflow = await modal.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, "style-guide-modal-1280.png") });
    await modal.getByRole("button", { name: "Cancel" }).click();
    await expectTextSoon(page.locator("#dialogs .notice-success"), "The modal form was cancelled.");

    await page.getByRole("button", { name: "Open a partial form" }).click();
    const partial = page.getByRole("dialog", { name: "Edit Mudflats at dawn" });
    await partial.waitFor();
    expect(await partial.locator("[data-field]").evaluateAll((fields) => fields.map((field) => field.getAttribute("data-field")))).toEqual([
      "title",
    ]);
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: path.join(SCREENSHOTS, "style-guide-modal-390.png") });
    await partial.getByRole("button", { name: "Cancel" }).click();
    await partial.waitFor({ state: "detached" });
    ctx.expectNoErrors();
    await ctx.close();
  });
});
