import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent } from "@server/content/store";
import { JS_MODES, launchBrowser, open, submitAndWait, textOf, waitForHydration } from "@tests/support/browser";
import { signedInContext } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * Bulk actions (issue 34) in the browser, with JavaScript in English and without in Dutch: a curator moves the twenty
 * artworks of one room to another (the overview searched for the room, every match chosen, the field set), then
 * duplicates one ticked artwork.
 */

let server: TestServer;
let browser: Browser;

const SCHEMA = {
  type: "object",
  "title-key": "title",
  properties: {
    title: { type: "string", title: "Title" },
    room: { type: "string", title: "Room", enum: ["Zaal 2", "Zaal 3", "Zaal 5"] },
  },
};

const WORDS = {
  en: {
    locale: "en-GB",
    search: "Search",
    scopeAll: "Every matching document",
    set: "Set a field…",
    selected: "20 documents selected:",
    choose: "Choose",
    setButton: "Set for 20 documents",
    changed: "20 documents changed.",
    duplicate: "Duplicate…",
    duplicateButton: "Duplicate 1 document",
    copied: "1 copy made.",
    copy: "(copy)",
  },
  nl: {
    locale: "nl-NL",
    search: "Zoeken",
    scopeAll: "Alle overeenkomende documenten",
    set: "Veld wijzigen…",
    selected: "20 documenten geselecteerd:",
    choose: "Kiezen",
    setButton: "Instellen voor 20 documenten",
    changed: "20 documenten gewijzigd.",
    duplicate: "Dupliceren…",
    duplicateButton: "1 document dupliceren",
    copied: "1 kopie gemaakt.",
    copy: "(kopie)",
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
  "bulk actions $label, in $language",
  ({ javaScriptEnabled, language }) => {
    it("moves the twenty artworks of a room to another, then duplicates a ticked one", async () => {
      const words = WORDS[language];
      const run = `${language}${Date.now().toString(36)}`;
      const bucket: Bucket = await createTestBucket(server.db, { name: `Bulk artworks ${run}`, jsonSchema: SCHEMA });
      const ids: string[] = [];
      for (let number = 1; number <= 25; number += 1) {
        const data = { title: `Werk ${number} ${run}`, room: number <= 20 ? "Zaal 2" : "Zaal 3" };
        ids.push((await createContent(server.db, bucket.id, data, null)).contentId);
      }
      const { newPage, close } = await signedInContext(browser, server, { javaScriptEnabled, locale: words.locale });
      try {
        const page = await newPage();
        await open(page, `/b/${bucket.slug}`);
        await page.locator("#overview-search").fill("Zaal 2");
        await Promise.all([page.waitForURL(/[?&]q=Zaal/), page.locator("main form.search button[type=submit]").click()]);
        await waitForHydration(page);
        await page.locator("#bulk-scope").selectOption({ label: words.scopeAll });
        await Promise.all([page.waitForURL(/\/bulk\?/), page.locator(".bulk-bar button", { hasText: words.set }).click()]);
        await waitForHydration(page);
        expect(await textOf(page.locator(".bulk-page > p").first())).toBe(words.selected);

        await page.locator("#bulk-field").selectOption("room");
        await Promise.all([page.waitForURL(/field=room/), page.locator(".bulk-field-choice button", { hasText: words.choose }).click()]);
        await waitForHydration(page);
        await page.locator("#bulk-value").selectOption("Zaal 5");
        await submitAndWait(page, page.locator(".bulk-set button", { hasText: words.setButton }));
        await expect.poll(() => page.locator(".bulk-outcome").textContent(), { timeout: 30_000 }).toContain(words.changed);

        const { rows } = await server.db.query<{ room: string; count: number }>(
          `SELECT v.data ->> 'room' AS room, count(*)::int AS count FROM contents c JOIN versions v ON v.version_id = c.latest_version_id
           WHERE c.bucket_id = $1 GROUP BY 1 ORDER BY 1`,
          [bucket.id],
        );
        expect(rows).toEqual([
          { room: "Zaal 3", count: 5 },
          { room: "Zaal 5", count: 20 },
        ]);

        // One artwork ticked in the overview and duplicated.
        await open(page, `/b/${bucket.slug}?q=Zaal+3`);
        await page.locator(`input.select-box[value="${ids[20]}"]`).check();
        await Promise.all([page.waitForURL(/\/bulk\?/), page.locator(".bulk-bar button", { hasText: words.duplicate }).click()]);
        await waitForHydration(page);
        await submitAndWait(page, page.locator(".bulk-confirm button", { hasText: words.duplicateButton }));
        await expect.poll(() => page.locator(".bulk-outcome").textContent(), { timeout: 30_000 }).toContain(words.copied);
        await open(page, `/b/${bucket.slug}?q=Werk+21`);
        const titles = await page.locator("table.content-table tbody td:nth-child(2) > a").allTextContents();
        expect(titles.sort()).toEqual([`Werk 21 ${run}`, `Werk 21 ${run} ${words.copy}`]);
      } finally {
        await close();
      }
    });
  },
);
