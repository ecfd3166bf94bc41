import type { Browser } from "playwright-core";
import sharp from "sharp";
import yazl from "yazl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent } from "@server/content/store";
import { JS_MODES, launchBrowser, open, runsScripts, submitAndWait, textOf, waitForHydration } from "@tests/support/browser";
import { signedInContext } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * Documents in and found (issue 34) in the browser, with JavaScript in English and without in Dutch: an editor
 * imports artworks from a museum's CSV with a ZIP of their images through the overview's Import (the check finds
 * nothing mapped, the columns are mapped, one row is refused for its year, the rest imported while the page follows
 * the run), then finds one through the top bar's search box and opens it: its image came from the ZIP.
 */

let server: TestServer;
let browser: Browser;

const SCHEMA = {
  type: "object",
  "title-key": "title",
  required: ["ref"],
  properties: {
    ref: { type: "string", title: "Inventory number" },
    title: { type: "string", title: "Title", translate: true },
    year: { type: "integer", title: "Year", minimum: 1000 },
    image: { type: "string", title: "Image", _ref: "b-image", minWidth: 10 },
  },
};

/** A PNG of noise (an image upload must be over 1 kB); `seed` makes each one's bytes its own. */
const png = (seed: number) =>
  sharp(Buffer.from(Array.from({ length: 40 * 30 * 3 }, (_, index) => (index * 7919 + seed * 104729) % 251)), {
    raw: { width: 40, height: 30, channels: 3 },
  })
    .png({ compressionLevel: 0 })
    .toBuffer();

async function zipOf(entries: Record<string, Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries)) zip.addBuffer(content, name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const WORDS = {
  en: {
    locale: "en-GB",
    import: "Import",
    firstCheck: "3 rows checked: 0 new, 0 to update, 0 unchanged, 3 with problems.",
    check: "3 rows checked: 2 new, 0 to update, 0 unchanged, 1 with problems.",
    checkAgain: "Check again",
    importButton: "Import 2 documents",
    done: "3 rows imported: 2 new, 0 updated, 0 unchanged, 1 skipped for their problems.",
    search: "Search everything",
    results: "Search",
  },
  nl: {
    locale: "nl-NL",
    import: "Importeren",
    firstCheck: "3 rijen gecontroleerd: 0 nieuw, 0 bij te werken, 0 ongewijzigd, 3 met problemen.",
    check: "3 rijen gecontroleerd: 2 nieuw, 0 bij te werken, 0 ongewijzigd, 1 met problemen.",
    checkAgain: "Opnieuw controleren",
    importButton: "2 documenten importeren",
    done: "3 rijen geïmporteerd: 2 nieuw, 0 bijgewerkt, 0 ongewijzigd, 1 overgeslagen vanwege problemen.",
    search: "Alles doorzoeken",
    results: "Zoeken",
  },
};

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

describe.each(JS_MODES.map((mode, index) => ({ ...mode, language: index === 0 ? ("en" as const) : ("nl" as const) })))(
  "importing and finding documents $label, in $language",
  ({ javaScriptEnabled, language }) => {
    it("imports artworks from a CSV with a mapping, then finds one through the top bar's search", async () => {
      const words = WORDS[language];
      const run = `${language}${Date.now().toString(36)}`;
      const bucket: Bucket = await createTestBucket(server.db, { name: `Artworks ${run}`, locales: ["nl", "en"], jsonSchema: SCHEMA });
      await createContent(server.db, bucket.id, { ref: "OLD-1", title: { nl: "Ouder werk" } }, null);
      const { newPage, close } = await signedInContext(browser, server, { javaScriptEnabled, locale: words.locale });
      try {
        const page = await newPage();
        await open(page, `/b/${bucket.slug}`);
        await Promise.all([
          page.waitForURL(`**/b/${bucket.slug}/import`),
          page.locator(".transfer-links a", { hasText: words.import }).click(),
        ]);
        await waitForHydration(page);
        const csv = [
          `Nummer;Titel;Jaar;Beeld`,
          `Z-1;Strand ${run};1881;beelden/strand.png`,
          `Z-2;Duinen ${run};achttien;beelden/duinen.png`,
          `Z-3;Haven ${run};1890;beelden/haven-${run}.png`,
        ].join("\n");
        await page.locator("#import-file").setInputFiles({ name: "werken.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
        const images = await zipOf({
          "beelden/strand.png": await png(1),
          "beelden/duinen.png": await png(2),
          [`beelden/haven-${run}.png`]: await png(3),
        });
        await page.locator("#import-media").setInputFiles({ name: "beelden.zip", mimeType: "application/zip", buffer: images });
        await submitAndWait(page, page.locator(".import-upload button[type=submit]"));
        const summary = page.locator(".import-page > p[role=status]");
        await expect.poll(() => summary.textContent(), { timeout: 30_000 }).toBe(words.firstCheck);

        // The Dutch headers mapped to the bucket's columns, the inventory number as the key.
        await page.locator('select[name="map.Nummer"]').selectOption("ref");
        await page.locator('select[name="map.Titel"]').selectOption("title.nl");
        await page.locator('select[name="map.Jaar"]').selectOption("year");
        await page.locator('select[name="map.Beeld"]').selectOption("image");
        await page.locator("#import-key").selectOption("ref");
        await submitAndWait(page, page.getByRole("button", { name: words.checkAgain }));
        await expect.poll(() => summary.textContent(), { timeout: 30_000 }).toBe(words.check);
        expect(await textOf(page.locator(".import-problems tbody tr"))).toMatch(/^2\s*year/);

        await submitAndWait(page, page.getByRole("button", { name: words.importButton }));
        await expect.poll(() => summary.textContent(), { timeout: 30_000 }).toBe(words.done);
        await open(page, `/b/${bucket.slug}`);
        const titles = await page.locator("table.content-table tbody td:nth-child(2) > a").allTextContents();
        expect(titles.sort()).toEqual(["Haven " + run, "Ouder werk", "Strand " + run].sort());

        // Found from any page through the top bar: with JavaScript "/" goes to the box.
        const box = page.getByRole("searchbox", { name: words.search });
        if (runsScripts(page)) {
          await page.locator("main h1").click();
          await page.keyboard.press("/");
          await expect.poll(() => box.evaluate((element) => element === document.activeElement)).toBe(true);
          await page.keyboard.type(`Haven ${run}`);
        } else await box.fill(`Haven ${run}`);
        await Promise.all([page.waitForURL(/\/search\?q=/), box.press("Enter")]);
        await waitForHydration(page);
        await expect.poll(() => page.locator("main h1").textContent()).toBe(words.results);
        const hit = page.locator(".search-group .search-hit-title");
        await expect.poll(() => hit.allTextContents()).toEqual([`Haven ${run}`]);
        await Promise.all([page.waitForURL(`**/b/${bucket.slug}/*/latest`), hit.click()]);
        await waitForHydration(page);
        expect(await page.locator('input[name="ref"]').inputValue()).toBe("Z-3");
        // Its image, from the ZIP, stored and served.
        await expect.poll(() => page.locator(".media-filename").allTextContents()).toEqual([`haven-${run}.png`]);
        await expect
          .poll(() => page.locator("img.media-thumb").evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
          .toBe(40);
      } finally {
        await close();
      }
    });
  },
);
