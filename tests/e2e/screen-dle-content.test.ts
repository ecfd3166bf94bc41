import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContent, getSingletonContent } from "@server/content/store";
import { JS_MODES, launchBrowser, open, pathOf, textOf, waitForPath } from "@tests/support/browser";
import { bucketForm, control, fieldBox, formValues, plainText, save, signedInContext, submitWith } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The dle-content screen (docs/screens.md) in a browser, with JavaScript and without: create on the new page,
 * edit a singleton (its new page leads to its edit page), the preview of the main texts (live as the editor types
 * with JavaScript; the saved or posted values without), the translation strip (its link to a missing field; its
 * counts after filling it), reordering the highlights (the preview follows), and a version conflict.
 */

let server: TestServer;
let browser: Browser;

const SCHEMA = {
  type: "object",
  required: ["title"],
  properties: {
    title: { type: "string", title: "Title", translate: true },
    introduction: { type: "string", title: "Introduction", renderer: "textarea", translate: true },
    teacherNotes: { type: "string", title: "Notes for teachers", renderer: "textarea", translate: true },
    highlights: {
      type: "array",
      title: "Highlights",
      sortable: true,
      "append-index-to-title": true,
      items: { type: "string", title: "Highlight", translate: true },
    },
  },
};
const STORED = {
  title: { nl: "Het museum als leslokaal", en: "The museum as a classroom" },
  introduction: { nl: "Drie sessies.", en: "Three sessions." },
  teacherNotes: { nl: "Veertig minuten." },
  highlights: [
    { nl: "Korte films", en: "Short films" },
    { nl: "Vragen", en: "Questions" },
    { nl: "Digibord", en: "Classroom screen" },
  ],
};
// Both saved the same field: the merge shows both values and asks which to keep (server/content/merge-save.ts).
const CONFLICT = "saved this document while you were editing it.";

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

const previewOf = (page: Page, locale: string) => page.locator(`.dle-preview article[data-locale="${locale}"]`);
const stripOf = (page: Page, locale: string) => page.locator(`.translation-strip li[data-locale="${locale}"]`);

/** With JavaScript one locale's inputs show at a time: the preview's tab switches the form to it. */
async function showLocale(page: Page, locale: string, javaScriptEnabled: boolean) {
  if (!javaScriptEnabled) return;
  await page.locator(".dle-preview [role=tab]", { hasText: locale.toUpperCase() }).click();
  await page.locator(`.dle-preview [role=tab][aria-selected="true"]`, { hasText: locale.toUpperCase() }).waitFor();
}

/** Waits until the locator's text (visible or not) is `expected`; returns what it last read. */
async function waitForText(locator: ReturnType<Page["locator"]>, expected: string, timeout = 10_000): Promise<string> {
  const deadline = Date.now() + timeout;
  let text = await plainText(locator);
  while (text !== expected && Date.now() < deadline) {
    await locator.page().waitForTimeout(50);
    text = await plainText(locator);
  }
  return text;
}

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  it("creates an environment on the new page; the preview follows the typing (JavaScript) or shows the saved values", async () => {
    const bucket = await createTestBucket(server.db, { screen: "dle-content", jsonSchema: SCHEMA });
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/dle-content/${bucket.slug}/new`);
    expect(await textOf(page.locator("h1"))).toBe("New document");
    expect(await plainText(stripOf(page, "nl"))).toBe("NL 0 of 4 filled Missing: Title, Introduction, Notes for teachers, Highlights 1");

    await control(page, "title.nl").fill("Water en land");
    await control(page, "introduction.nl").fill("Eerste alinea.\n\nTweede alinea.");
    await showLocale(page, "en", javaScriptEnabled);
    await control(page, "title.en").fill("Water and land");
    if (javaScriptEnabled) {
      // Live: the preview and the strip read the form as it is typed, before any save.
      expect(await waitForText(previewOf(page, "en").locator("h3"), "Water and land")).toBe("Water and land");
      expect(await previewOf(page, "nl").locator(".dle-preview-paragraphs").first().locator("p").allTextContents()).toEqual([
        "Eerste alinea.",
        "Tweede alinea.",
      ]);
      expect(await waitForText(stripOf(page, "en"), "EN 1 of 4 filled Missing: Introduction, Notes for teachers, Highlights 1")).toBe(
        "EN 1 of 4 filled Missing: Introduction, Notes for teachers, Highlights 1",
      );
    } else {
      // Without JavaScript the preview shows what the page was rendered with.
      expect(await plainText(previewOf(page, "en").locator("h3"))).toBe("Not filled in yet");
    }

    await save(page);
    expect(pathOf(page)).toMatch(new RegExp(`^/dle-content/${bucket.slug}/[0-9a-f-]{36}/latest\\?saved$`));
    expect(await plainText(previewOf(page, "en").locator("h3"))).toBe("Water and land");
    expect(await plainText(previewOf(page, "nl").locator("h3"))).toBe("Water en land");
    // The empty highlight was not saved: its fields are gone from the count.
    expect(await plainText(stripOf(page, "nl"))).toBe("NL 2 of 3 filled Missing: Notes for teachers");
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("edits a singleton (its new page leads there); the strip's link reaches a missing field and its count follows the filling", async () => {
    const bucket = await createTestBucket(server.db, { singleton: true, screen: "dle-content", jsonSchema: SCHEMA });
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    await createContent(server.db, bucket.id, STORED, ctx.user.id, { singleton: true });
    const page = await ctx.newPage();
    await open(page, `/dle-content/${bucket.slug}/new`);
    await waitForPath(page, `/dle-content/${bucket.slug}/edit`);
    expect(await textOf(page.locator("h1"))).toBe(bucket.name);
    expect(await plainText(stripOf(page, "en"))).toBe("EN 5 of 6 filled Missing: Notes for teachers");
    expect(await plainText(stripOf(page, "nl"))).toBe("NL 6 of 6 filled ✓ complete");

    await stripOf(page, "en").getByRole("link", { name: "Notes for teachers" }).click();
    const notes = control(page, "teacherNotes.en");
    await notes.waitFor({ state: "visible" });
    if (javaScriptEnabled) {
      // The form switched to English and the missing field has the focus.
      await page.waitForFunction(() => document.activeElement?.getAttribute("name") === "teacherNotes.en");
      expect(await control(page, "title.en").isVisible()).toBe(true);
      expect(await control(page, "title.nl").isVisible()).toBe(false);
    } else {
      expect(new URL(page.url()).hash).toBe(`#${await notes.getAttribute("id")}`);
    }
    await notes.fill("Forty minutes each.");
    if (javaScriptEnabled)
      expect(await waitForText(stripOf(page, "en"), "EN 6 of 6 filled ✓ complete")).toBe("EN 6 of 6 filled ✓ complete");
    else expect(await plainText(stripOf(page, "en"))).toBe("EN 5 of 6 filled Missing: Notes for teachers");

    await save(page);
    await waitForPath(page, `/dle-content/${bucket.slug}/edit?saved`);
    expect(await plainText(stripOf(page, "en"))).toBe("EN 6 of 6 filled ✓ complete");
    expect(await plainText(previewOf(page, "en").locator(".dle-preview-paragraphs").nth(1))).toBe("Forty minutes each.");
    expect((await getSingletonContent(server.db, bucket.id))?.data).toMatchObject({
      teacherNotes: { nl: "Veertig minuten.", en: "Forty minutes each." },
    });
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("reorders the highlights with the buttons; the preview's list follows, and the save stores the order", async () => {
    const bucket = await createTestBucket(server.db, { singleton: true, screen: "dle-content", jsonSchema: SCHEMA });
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    await createContent(server.db, bucket.id, STORED, ctx.user.id, { singleton: true });
    const page = await ctx.newPage();
    await open(page, `/dle-content/${bucket.slug}/edit`);
    const list = previewOf(page, "en").locator('ul[data-text="highlights"] li');
    expect(await list.allTextContents()).toEqual(["Short films", "Questions", "Classroom screen"]);

    // Move the first highlight down: without JavaScript the button posts the form and the page comes back reordered.
    const moveDown = fieldBox(page, "highlights").getByRole("button", { name: "Move down" }).first();
    if (javaScriptEnabled) await moveDown.click();
    else await submitWith(page, moveDown);
    const deadline = Date.now() + 10_000;
    while ((await list.first().textContent()) !== "Questions" && Date.now() < deadline) await page.waitForTimeout(50);
    expect(await list.allTextContents()).toEqual(["Questions", "Short films", "Classroom screen"]);
    expect(await previewOf(page, "nl").locator('ul[data-text="highlights"] li').allTextContents()).toEqual([
      "Vragen",
      "Korte films",
      "Digibord",
    ]);
    expect(await plainText(stripOf(page, "en"))).toBe("EN 5 of 6 filled Missing: Notes for teachers");

    await save(page);
    await waitForPath(page, `/dle-content/${bucket.slug}/edit?saved`);
    expect((await getSingletonContent(server.db, bucket.id))?.data.highlights).toEqual([
      STORED.highlights[1],
      STORED.highlights[0],
      STORED.highlights[2],
    ]);
    expect(await list.allTextContents()).toEqual(["Questions", "Short films", "Classroom screen"]);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("refuses the second of two saves on the same version, its input and its preview kept", async () => {
    const bucket = await createTestBucket(server.db, { singleton: true, screen: "dle-content", jsonSchema: SCHEMA });
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    await createContent(server.db, bucket.id, STORED, ctx.user.id, { singleton: true });
    const path = `/dle-content/${bucket.slug}/edit`;
    const [pageA, pageB] = [await ctx.newPage(), await ctx.newPage()];
    await open(pageA, path);
    await open(pageB, path);

    await control(pageA, "title.nl").fill("Van A");
    await save(pageA);
    await waitForPath(pageA, `${path}?saved`);
    await control(pageB, "title.nl").fill("Van B");
    expect(await save(pageB)).toBe(409);
    expect(await textOf(pageB.locator(".form-error p").first())).toContain(CONFLICT);
    expect(await formValues(pageB)).toMatchObject({ "title.nl": "Van B" });
    expect(await plainText(previewOf(pageB, "nl").locator("h3"))).toBe("Van B");
    expect((await getSingletonContent(server.db, bucket.id))?.data).toMatchObject({ title: { nl: "Van A" } });

    // Saving again makes B's input the newest version.
    await save(pageB);
    await waitForPath(pageB, `${path}?saved`);
    expect((await getSingletonContent(server.db, bucket.id))?.data).toMatchObject({ title: { nl: "Van B" } });
    expect(await bucketForm(pageB).count()).toBe(1);
    ctx.expectNoErrors();
    await ctx.close();
  });
});
