import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent } from "@server/content/store";
import { JS_MODES, clickTo, launchBrowser, open, pathOf } from "@tests/support/browser";
import { control, fieldBox, save, signedInContext, storedDocument, submitWith } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The trend screen (docs/screens.md) in Chromium, with JavaScript and without: the generic overview's links lead
 * to it; a trend is made with its translated title and related trends (added through the listbox, or the select and
 * 'Add'), reordered (buttons, or dragging) and saved; two pages on the same version: the second save gets the
 * conflict message with its input kept; the documents that use a trend are linked beside it.
 */

let server: TestServer;
let browser: Browser;
let trends: Bucket;
let talks: Bucket;
let secret: Bucket;
const ids = {} as Record<"craft" | "green" | "light" | "talk", string>;
// Both saved the same field: the merge shows both values and asks which to keep (server/content/merge-save.ts).
const CONFLICT = "saved this document while you were editing it.";

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  const collection = `e2e-trends-${Date.now().toString(36)}`;
  trends = await createTestBucket(server.db, {
    slug: collection,
    name: "Trends",
    screen: "trend",
    jsonSchema: {
      type: "object",
      required: ["title"],
      properties: {
        title: { type: "string", title: "Title", translate: true },
        summary: { type: "string", title: "Summary", renderer: "textarea", translate: true },
        related: {
          type: "array",
          title: "Related trends",
          renderer: "trend-select",
          maxItems: 3,
          items: { type: "string", _ref: collection },
        },
      },
    },
  });
  const referrer = {
    type: "object",
    properties: {
      title: { type: "string", title: "Title" },
      trend: { type: "string", title: "Trend", _ref: collection, renderer: "trend-select" },
    },
  };
  talks = await createTestBucket(server.db, { name: "Talks", jsonSchema: referrer });
  secret = await createTestBucket(server.db, { name: "Secret talks", private: true, jsonSchema: referrer });
  const doc = async (bucket: Bucket, data: Record<string, unknown>) => (await createContent(server.db, bucket.id, data, null)).contentId;
  ids.craft = await doc(trends, { title: { nl: "Ambacht", en: "Craft revival" } });
  ids.green = await doc(trends, { title: { nl: "Groene steden", en: "Green cities" } });
  ids.light = await doc(trends, { title: { nl: "Licht en water", en: "Light and water" }, related: [ids.green] });
  ids.talk = await doc(talks, { title: "Morning talk", trend: ids.light });
  await doc(secret, { title: "Board meeting", trend: ids.light });
}, 60_000);
afterAll(async () => {
  await browser.close();
  await server.stop();
});

const cardTitles = (page: Page) => fieldBox(page, "related").locator("li.trend-card .trend-card-title").allTextContents();

/** Fills a translated text in every locale (with JavaScript one locale shows at a time: its tab first). */
async function fillTranslated(page: Page, name: string, texts: Record<string, string>, javaScriptEnabled: boolean) {
  for (const [locale, text] of Object.entries(texts)) {
    if (javaScriptEnabled) await fieldBox(page, name).getByRole("tab", { name: locale.toUpperCase() }).click();
    await control(page, `${name}.${locale}`).fill(text);
  }
  if (javaScriptEnabled) await fieldBox(page, name).getByRole("tab", { name: "NL" }).click();
}

/** Adds a related trend: the listbox with JavaScript, the select and 'Add' without. */
async function addRelated(page: Page, title: string, javaScriptEnabled: boolean) {
  const field = fieldBox(page, "related");
  if (javaScriptEnabled) {
    await field.getByRole("button", { name: "Add a trend" }).click();
    await field.getByRole("option", { name: title }).click();
  } else {
    // The trends are drafts, which the option says after the title.
    await field.getByLabel("Add a related trend").selectOption({ label: `${title} (Draft)` });
    expect(await submitWith(page, field.getByRole("button", { name: "Add", exact: true }))).toBe(200);
  }
}

describe.each(JS_MODES)("the trend screen $label", ({ javaScriptEnabled }) => {
  it("is where the overview's links lead; makes a trend with related trends, reorders them and saves", async () => {
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/b/${trends.slug}`);
    expect(await page.locator(`a[href="/trend/${trends.slug}/${ids.light}/latest"]`).count()).toBeGreaterThan(0);
    await clickTo(page, page.locator(`a[href="/trend/${trends.slug}/new"]`).first(), `/trend/${trends.slug}/new`);
    await page.locator("section.trend-screen").waitFor();

    // Each mode's trend has its own title: the other mode's is another trend, offered like any other.
    const title = javaScriptEnabled ? "Zee" : "Stille zee";
    await fillTranslated(page, "title", { nl: title, en: "Sea" }, javaScriptEnabled);
    await addRelated(page, "Licht en water", javaScriptEnabled);
    await addRelated(page, "Ambacht", javaScriptEnabled);
    expect(await cardTitles(page)).toEqual(["Licht en water", "Ambacht"]);
    expect(await control(page, "title.nl").inputValue()).toBe(title); // input kept

    const up = fieldBox(page, "related").getByRole("button", { name: "Move up: Ambacht" });
    if (javaScriptEnabled) await up.click();
    else expect(await submitWith(page, up)).toBe(200);
    await expect.poll(() => cardTitles(page)).toEqual(["Ambacht", "Licht en water"]);
    if (javaScriptEnabled) {
      // Dragging a card onto another moves it there.
      const cards = fieldBox(page, "related").locator("li.trend-card");
      await cards.nth(1).dragTo(cards.nth(0));
      await expect.poll(() => cardTitles(page)).toEqual(["Licht en water", "Ambacht"]);
      await cards.nth(1).dragTo(cards.nth(0));
      await expect.poll(() => cardTitles(page)).toEqual(["Ambacht", "Licht en water"]);
    }

    expect(await save(page)).toBeLessThan(400);
    const match = new RegExp(`^/trend/${trends.slug}/([0-9a-f-]{36})/latest(\\?saved)?$`).exec(pathOf(page));
    expect(match, pathOf(page)).not.toBeNull();
    const stored = await storedDocument(server, ctx.cookie, trends.slug, match![1]!);
    expect(stored.data).toMatchObject({ title: { nl: title, en: "Sea" }, related: [ids.craft, ids.light] });
    // The trend itself is never offered for its own list.
    let offered: string[];
    if (javaScriptEnabled) {
      await fieldBox(page, "related").getByRole("button", { name: "Add a trend" }).click();
      offered = await fieldBox(page, "related").getByRole("option").locator(".trend-option-label").allTextContents();
      expect(
        await fieldBox(page, "related").getByRole("option", { name: "Groene steden" }).locator(".publication-badge").textContent(),
      ).toBe("Draft");
    } else {
      // The options' text: the title, and the state of a trend not published ("Groene steden (Draft)").
      const texts = await fieldBox(page, "related").getByLabel("Add a related trend").locator("option").allTextContents();
      offered = texts.map((text) => text.replace(/ \(Draft\)$/, ""));
      expect(texts).toContain("Groene steden (Draft)");
    }
    expect(offered).toContain("Groene steden");
    for (const chosen of [title, "Ambacht", "Licht en water"]) expect(offered).not.toContain(chosen);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("gives the second of two saves on the same version the conflict message, keeping its input", async () => {
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const { contentId } = await createContent(server.db, trends.id, { title: { nl: "Gedeeld", en: "Shared" }, related: [ids.green] }, null);
    const path = `/trend/${trends.slug}/${contentId}/latest`;
    const [first, second] = [await ctx.newPage(), await ctx.newPage()];
    await open(first, path);
    await open(second, path);
    await control(first, "title.nl").fill("Eerste");
    expect(await save(first)).toBeLessThan(400);
    await control(second, "title.nl").fill("Tweede");
    await addRelated(second, "Ambacht", javaScriptEnabled);
    expect(await save(second)).toBe(409);
    await second.locator(".form-error", { hasText: CONFLICT }).waitFor();
    expect(await control(second, "title.nl").inputValue()).toBe("Tweede");
    expect(await cardTitles(second)).toEqual(["Groene steden", "Ambacht"]);
    const stored = await storedDocument(server, ctx.cookie, trends.slug, contentId);
    expect(stored.data).toMatchObject({ title: { nl: "Eerste" }, related: [ids.green] });
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("links the documents that use the trend, and only counts those the user may not see", async () => {
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/trend/${trends.slug}/${ids.light}/latest`);
    const aside = page.locator("aside.screen-aside");
    expect(await aside.getByRole("heading").textContent()).toBe("Used by");
    expect(await aside.textContent()).toContain("…and 1 document in a bucket you cannot see.");
    expect(await aside.textContent()).not.toContain("Board meeting");
    await clickTo(page, aside.getByRole("link", { name: "Morning talk" }), `/b/${talks.slug}/${ids.talk}/latest`);
    await expect.poll(() => control(page, "title").inputValue()).toBe("Morning talk");
    ctx.expectNoErrors();
    await ctx.close();
  });
});
