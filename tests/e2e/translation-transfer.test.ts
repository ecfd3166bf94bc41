import { readFileSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createContent } from "@server/content/store";
import { JS_MODES, launchBrowser, open, submitAndWait, waitForHydration } from "@tests/support/browser";
import { signedInContext } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The Dutch texts out and back (issue 34) in the browser, with JavaScript in English and without in Dutch: from the
 * overview's Translations (XLIFF), the bucket's texts downloaded for Dutch, translated (each <source> given a
 * <target>), uploaded, checked and filled: the documents' Dutch fields hold the translations.
 */

let server: TestServer;
let browser: Browser;

const SCHEMA = {
  type: "object",
  "title-key": "title",
  properties: {
    title: { type: "string", title: "Title", translate: true },
    description: { type: "string", title: "Description", description: "Shown beside the artwork", translate: true },
  },
};

const WORDS = {
  en: { locale: "en-GB", link: "Translations (XLIFF)", download: "Download XLIFF", check: "Upload and check", apply: "Fill 4 texts" },
  nl: {
    locale: "nl-NL",
    link: "Vertalingen (XLIFF)",
    download: "XLIFF downloaden",
    check: "Uploaden en controleren",
    apply: "4 teksten invullen",
  },
};

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

/** The translator's work: every source text given a Dutch target. */
const translated = (xliff: string) =>
  xliff.replace(
    /<source>([^<]*)<\/source>(\s*)(?!\s*<target>)/g,
    (_, text: string, space: string) => `<source>${text}</source>${space}<target>NL ${text}</target>${space}`,
  );

describe.each(JS_MODES.map((mode, index) => ({ ...mode, language: index === 0 ? ("en" as const) : ("nl" as const) })))(
  "translations $label, in $language",
  ({ javaScriptEnabled, language }) => {
    it("sends the texts out for Dutch as XLIFF and fills the Dutch fields from the translated file", async () => {
      const words = WORDS[language];
      const run = `${language}${Date.now().toString(36)}`;
      const bucket: Bucket = await createTestBucket(server.db, { name: `Guide ${run}`, locales: ["en", "nl"], jsonSchema: SCHEMA });
      for (const name of ["Harbour", "Dunes"]) {
        const data = { title: { en: `${name} ${run}` }, description: { en: `About the ${name.toLowerCase()}` } };
        await createContent(server.db, bucket.id, data, null);
      }
      const { newPage, close } = await signedInContext(browser, server, { javaScriptEnabled, locale: words.locale });
      try {
        const page = await newPage();
        await open(page, `/b/${bucket.slug}`);
        await Promise.all([
          page.waitForURL(`**/b/${bucket.slug}/translations`),
          page.locator(".transfer-links a", { hasText: words.link }).click(),
        ]);
        await waitForHydration(page);
        await page.locator("#translation-export-locale").selectOption("nl");
        const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: words.download }).click()]);
        const exported = readFileSync(await download.path(), "utf8");
        expect(exported).toContain('srcLang="en" trgLang="nl"');
        expect(exported).toContain(`<source>Harbour ${run}</source>`);
        expect(exported).toContain("Shown beside the artwork");

        await page.locator("#translation-import-locale").selectOption("nl");
        await page
          .locator("#translation-file")
          .setInputFiles({ name: "guide-nl.xlf", mimeType: "application/xliff+xml", buffer: Buffer.from(translated(exported)) });
        await submitAndWait(page, page.getByRole("button", { name: words.check }));
        const apply = page.getByRole("button", { name: words.apply });
        await apply.waitFor();
        await submitAndWait(page, apply);
        await page.locator("#translation-outcome").waitFor();

        const { rows } = await server.db.query<{ data: { title: Record<string, string>; description: Record<string, string> } }>(
          `SELECT v.data FROM contents c JOIN versions v ON v.version_id = c.latest_version_id WHERE c.bucket_id = $1 ORDER BY v.data -> 'title' ->> 'en'`,
          [bucket.id],
        );
        expect(rows.map((row) => row.data)).toEqual([
          { title: { en: `Dunes ${run}`, nl: `NL Dunes ${run}` }, description: { en: "About the dunes", nl: "NL About the dunes" } },
          {
            title: { en: `Harbour ${run}`, nl: `NL Harbour ${run}` },
            description: { en: "About the harbour", nl: "NL About the harbour" },
          },
        ]);
      } finally {
        await close();
      }
    });
  },
);
