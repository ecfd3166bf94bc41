import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { JS_MODES, launchBrowser, open, submitAndWait, textOf } from "@tests/support/browser";
import { signedInContext } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { get, postJson, sameOrigin } from "@tests/support/http";
import { pngOfSize, upload } from "@tests/support/media-fixtures";
import { documentPath } from "@core/content/screens";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * The media library in the browser (issue 35, docs/media.md), with JavaScript and without, in English and in Dutch:
 * an editor uploads three images at once, describes one in both languages, reuses it in an exhibition room and an
 * artwork through their fields' "Choose from library" (finding it by its Dutch description), sees both uses, gives it
 * a new file that both documents then show, and deletes an unused one.
 */

let server: TestServer;
let browser: Browser;
let photos: Bucket;
let artworks: Bucket;
/** Its image field may be cropped. */
let posters: Bucket;
const posterImage = { type: "string", title: "Poster", _ref: "b-image", enableCrop: true, minWidth: 1, minHeight: 1 };

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  photos = await createTestBucket(server.db, {
    name: "Collection photos",
    locales: ["en", "nl"],
    jsonSchema: {
      type: "object",
      properties: {
        title: { type: "string", title: "Title" },
        photo: { type: "string", title: "Photo", _ref: "b-image", minWidth: 100, minHeight: 50 },
      },
    },
  });
  artworks = await createTestBucket(server.db, {
    name: "Artworks",
    locales: ["en"],
    jsonSchema: {
      type: "object",
      properties: {
        title: { type: "string", title: "Title" },
        image: { type: "string", title: "Image", _ref: "b-image", minWidth: 150, minHeight: 100 },
      },
    },
  });
  posters = await createTestBucket(server.db, {
    name: "Posters",
    locales: ["en", "nl"],
    jsonSchema: { type: "object", properties: { title: { type: "string", title: "Title" }, image: posterImage } },
  });
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

const WORDS = {
  en: {
    locale: "en-US",
    title: "Media library",
    uploaded: "Uploaded",
    saved: "Descriptions saved.",
    replaced: "The file was replaced",
    back: "Back to the form",
  },
  nl: {
    locale: "nl-NL",
    title: "Mediabibliotheek",
    uploaded: "Geüpload",
    saved: "Beschrijvingen opgeslagen.",
    replaced: "Het bestand is vervangen",
    back: "Terug naar het formulier",
  },
} as const;

/** A poster image two documents use, saved over the API. */
async function sharedPoster(cookie: string, run: string) {
  const uploaded = await upload(
    server.url,
    "image",
    cookie,
    { bucket: posters.slug, properties: JSON.stringify(posterImage) },
    { data: await pngOfSize(300, 200), name: `${run}-poster.png` },
  );
  const image = ((await uploaded.json()) as Array<{ contentId: string }>)[0]!.contentId;
  const save = async (title: string) => {
    const response = await postJson(
      server.url,
      `/api/v1/buckets/${posters.slug}/save`,
      { content: { title, image }, collection: posters.collectionName },
      cookie,
      sameOrigin(server.url),
    );
    return ((await response.json()) as { contentId: string }).contentId;
  };
  return { image, hall: await save(`Hall ${run}`), foyer: await save(`Foyer ${run}`) };
}

const latestOf = async (contentId: string, cookie: string) =>
  (await (await get(server.url, `/api/v1/buckets/image/content/${contentId}/latest`, cookie)).json()) as {
    dimensions: { width: number; height: number };
  };

describe.each(JS_MODES.map((mode, index) => ({ ...mode, language: index === 0 ? ("en" as const) : ("nl" as const) })))(
  "the media library $label, in $language",
  ({ javaScriptEnabled, language }) => {
    it("uploads three images, describes one per language, reuses it in two documents, replaces it for both, deletes an unused one", async () => {
      const words = WORDS[language];
      const run = `${language}-${Date.now().toString(36)}`;
      const { newPage, close, cookie } = await signedInContext(browser, server, { javaScriptEnabled, locale: words.locale });
      try {
        const page = await newPage();
        await open(page, "/media");
        expect(await textOf(page.locator("main h1"))).toBe(words.title);

        await page.locator("details.media-upload > summary").click();
        await page.locator("#media-upload-bucket").selectOption(photos.slug);
        await page.locator("#media-upload-files").setInputFiles([
          { name: `${run}-harbour.png`, mimeType: "image/png", buffer: await pngOfSize(200, 120) },
          { name: `${run}-dunes.png`, mimeType: "image/png", buffer: await pngOfSize(210, 120) },
          { name: `${run}-tulips.png`, mimeType: "image/png", buffer: await pngOfSize(220, 120) },
        ]);
        await submitAndWait(page, page.locator(".media-upload-form button[type=submit]"));
        const results = page.locator(".media-upload-results > li");
        await expect.poll(() => results.count()).toBe(3);
        for (const text of await results.allTextContents()) expect(text).toContain(`${words.uploaded}:`);

        // The harbour photo: described in both languages.
        await results.getByRole("link", { name: `${run}-harbour.png` }).click();
        await expect.poll(() => page.locator("main h1").textContent()).toBe(`${run}-harbour.png`);
        const contentId = new URL(page.url()).pathname.split("/").pop()!;
        await page.locator('textarea[name="alt.en"]').fill(`Boats in the harbour ${run}`);
        await page.locator('textarea[name="alt.nl"]').fill(`Boten in de haven ${run}`);
        await page.locator('textarea[name="caption.nl"]').fill("De haven");
        await page.locator('input[name="credits"]').fill("© Museum");
        await submitAndWait(page, page.locator(".media-descriptions button[type=submit]"));
        await expect.poll(() => page.locator(".media-descriptions .flash-notice").textContent()).toContain(words.saved);

        // Reused from the library in an exhibition room and an artwork: each field's "Choose from library".
        const documents: string[] = [];
        for (const [bucket, field, title] of [
          [photos, "photo", `Harbour room ${run}`],
          [artworks, "image", `Harbour painting ${run}`],
        ] as const) {
          await open(page, `/b/${bucket.slug}/new`);
          await page.locator('form.bucket-form [name="title"]').fill(title);
          await submitAndWait(page, page.locator(`button[name="__chooseFromLibrary"][value="${field}"]`));
          await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toMatch(/^\/media\?pick=/);
          await page.locator("#media-q").fill(`boten in de haven ${run}`);
          await page.locator(".media-filters button[type=submit]").click();
          await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe(`boten in de haven ${run}`);
          await expect.poll(() => page.locator("[data-media-item]").count()).toBe(1);
          await submitAndWait(page, page.locator(`[data-media-item="${contentId}"] button[type=submit]`));
          // Back in the form, the title kept and the image in the field: saved.
          await expect.poll(() => page.locator('form.bucket-form [name="title"]').inputValue()).toBe(title);
          expect(await page.locator(`form.bucket-form input[type=hidden][name="${field}"]`).inputValue()).toBe(contentId);
          await submitAndWait(page, page.locator("form.bucket-form .form-actions button[type=submit]"));
          await expect.poll(() => new URL(page.url()).pathname).toMatch(new RegExp(`^/b/${bucket.slug}/[0-9a-f-]{36}/latest$`));
          documents.push(new URL(page.url()).pathname);
        }
        await open(page, `/media?q=${encodeURIComponent(`boten in de haven ${run}`)}&view=list`);
        await expect.poll(() => page.locator("tbody tr").count()).toBe(1);
        await page
          .locator("tbody tr")
          .getByRole("link", { name: `${run}-harbour.png` })
          .click();
        await expect.poll(() => page.locator(".media-uses a").count()).toBe(2);
        expect((await page.locator(".media-uses a").allTextContents()).sort()).toEqual([`Harbour painting ${run}`, `Harbour room ${run}`]);
        expect((await Promise.all((await page.locator(".media-uses a").all()).map((link) => link.getAttribute("href")))).sort()).toEqual(
          [...documents].sort(),
        );

        // A new file for it: refused when it does not fit the document's field, taken when it does.
        await page
          .locator("#media-replace-file")
          .setInputFiles({ name: "narrow.png", mimeType: "image/png", buffer: await pngOfSize(90, 90) });
        await submitAndWait(page, page.locator(".media-replace button[type=submit]"));
        await expect.poll(() => page.locator('[role="alert"]').first().textContent()).toContain(`Harbour room ${run}`);
        await page
          .locator("#media-replace-file")
          .setInputFiles({ name: `${run}-wider.png`, mimeType: "image/png", buffer: await pngOfSize(400, 200) });
        await submitAndWait(page, page.locator(".media-replace button[type=submit]"));
        await expect.poll(() => page.locator(".flash-notice").first().textContent()).toContain(words.replaced);
        const latest = (await (await get(server.url, `/api/v1/buckets/image/content/${contentId}/latest`, cookie)).json()) as {
          originalFilename: string;
          dimensions: { width: number };
        };
        expect(latest).toMatchObject({ originalFilename: `${run}-wider.png`, dimensions: { width: 400 } });
        for (const path of documents) {
          await open(page, path);
          await expect.poll(() => page.locator(".media-field").first().textContent()).toContain(`${run}-wider.png`);
        }

        // The unused tulips: deleted from the list with a checkbox.
        await open(page, `/media?q=${encodeURIComponent(`${run}-tulips`)}`);
        await page.locator('input[name="item"]').check();
        await submitAndWait(page, page.locator(".media-library-items button[type=submit]"));
        await expect.poll(() => page.locator(".flash-notice").first().textContent()).toMatch(/1 item/);
        await open(page, `/media?q=${encodeURIComponent(`${run}-tulips`)}`);
        expect(await page.locator("[data-media-item]").count()).toBe(0);
      } finally {
        await close();
      }
    });

    it("gives one use of a shared image its own texts and its own crop; the other use keeps the library's", async () => {
      const words = WORDS[language];
      const run = `${language}-use-${Date.now().toString(36)}`;
      const { newPage, close, cookie } = await signedInContext(browser, server, { javaScriptEnabled, locale: words.locale });
      try {
        const { image, hall, foyer } = await sharedPoster(cookie, run);
        const page = await newPage();
        const field = () => page.locator('form.bucket-form input[type=hidden][name="image"]');

        // The foyer's texts for its use: a use item's page, the library's texts as placeholders, back to the form.
        await open(page, documentPath(posters, foyer));
        await submitAndWait(page, page.locator('button[name="__useTexts"][value="image"]'));
        await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/media\/[0-9a-f-]{36}$/);
        const own = new URL(page.url()).pathname.split("/").pop()!;
        expect(own).not.toBe(image);
        await page.locator('textarea[name="alt.en"]').fill(`The poster in the foyer ${run}`);
        await submitAndWait(page, page.locator(".media-descriptions button[type=submit]"));
        await expect.poll(() => page.locator(".media-descriptions .flash-notice").textContent()).toContain(words.saved);
        await page.getByRole("link", { name: words.back }).click();
        await expect.poll(() => new URL(page.url()).searchParams.has("draft")).toBe(true);
        await expect.poll(() => field().inputValue()).toBe(own);
        await submitAndWait(page, page.locator("form.bucket-form .form-actions button[type=submit]"));
        await expect.poll(() => new URL(page.url()).pathname).toBe(documentPath(posters, foyer));

        // The hall's crop of the shared image is the hall's own: the field names a new item, the library's stays whole.
        await open(page, documentPath(posters, hall));
        if (javaScriptEnabled) {
          await page.locator(".media-actions").getByRole("button", { name: "Crop", exact: true }).click();
          const modal = page.locator("dialog.crop-modal");
          await modal.waitFor({ state: "visible" });
          await modal.getByRole("button", { name: /Resize the crop area/ }).focus();
          await page.keyboard.press("Shift+ArrowLeft");
          await modal.getByRole("button", { name: "Crop", exact: true }).click();
          await modal.waitFor({ state: "detached", timeout: 20_000 });
        } else {
          await page.locator("details.crop-fallback summary").click();
          await page.locator('input[name="__media_edit.crop.width.image"]').fill("200");
          await submitAndWait(page, page.locator('button[name="__media_crop"][value="image"]'));
        }
        await expect.poll(() => field().inputValue()).not.toBe(image);
        const cropped = await field().inputValue();
        expect(cropped).not.toBe(own);
        await submitAndWait(page, page.locator("form.bucket-form .form-actions button[type=submit]"));
        await expect.poll(async () => (await latestOf(cropped, cookie)).dimensions.width).toBeLessThan(300);
        expect((await latestOf(image, cookie)).dimensions).toEqual({ width: 300, height: 200 });

        // The library lists the poster once, used by both documents.
        await open(page, `/media/${image}`);
        await expect.poll(() => page.locator(".media-uses a").count()).toBe(2);
      } finally {
        await close();
      }
    });
  },
);

describe("choosing from the library in a sub-form's dialog (JavaScript)", () => {
  it("chooses a fitting image in place: the field's own reasons for the others, no leaving the page", async () => {
    const run = `dialog-${Date.now().toString(36)}`;
    const makers = await createTestBucket(server.db, {
      name: "Makers",
      jsonSchema: {
        type: "object",
        properties: {
          name: { type: "string", title: "Name" },
          portrait: { type: "string", title: "Portrait", _ref: "b-image", minWidth: 150, minHeight: 100 },
        },
      },
    });
    const works = await createTestBucket(server.db, {
      name: "Works with makers",
      jsonSchema: {
        type: "object",
        properties: {
          title: { type: "string", title: "Title" },
          maker: { type: "string", title: "Maker", _ref: makers.collectionName, renderer: "popup" },
        },
      },
    });
    const { newPage, close, cookie, expectNoErrors } = await signedInContext(browser, server);
    try {
      const send = async (name: string, width: number) => {
        const response = await upload(
          server.url,
          "image",
          cookie,
          { bucket: posters.slug, properties: JSON.stringify(posterImage) },
          { data: await pngOfSize(width, 120), name },
        );
        return ((await response.json()) as Array<{ contentId: string }>)[0]!.contentId;
      };
      const fits = await send(`${run}-wide.png`, 300);
      const narrow = await send(`${run}-narrow.png`, 100);
      const page = await newPage();
      await open(page, `/b/${works.slug}/new`);
      await page.getByRole("button", { name: "Edit Maker" }).click();
      const modal = page.locator("dialog.bucket-form-modal");
      await modal.waitFor({ state: "visible" });
      // The modal cannot leave its page: no post button of the page's kind, a dialog instead.
      expect(await modal.locator('button[name="__chooseFromLibrary"], button[name="__useTexts"]').count()).toBe(0);
      await modal.getByRole("button", { name: "Choose from library" }).click();
      const chooser = page.locator("dialog.library-dialog");
      await chooser.waitFor({ state: "visible" });
      await chooser.getByRole("searchbox").fill(run);
      await expect.poll(() => chooser.locator("[data-media-item]").count()).toBe(2);
      expect(await chooser.locator(`[data-media-item="${narrow}"]`).textContent()).toContain(
        "Image is too narrow (100px), minimum width: 150px",
      );
      await chooser.locator(`[data-media-item="${fits}"]`).getByRole("button").click();
      await chooser.waitFor({ state: "detached" });
      await expect.poll(() => modal.locator(".media-field").textContent()).toContain(`${run}-wide.png`);
      expect(await modal.locator('input[type=hidden][name="portrait"]').inputValue()).toBe(fits);
      await modal.locator('input[name="name"]').fill(`Maker ${run}`);
      await modal.getByRole("button", { name: "Submit" }).click();
      await modal.waitFor({ state: "hidden" });
      const makerId = await page.locator('form.bucket-form input[type=hidden][name="maker"]').inputValue();
      const saved = (await (await get(server.url, `/api/v1/buckets/${makers.slug}/content/${makerId}/latest`, cookie)).json()) as {
        portrait: string;
      };
      expect(saved.portrait).toBe(fits);
      expectNoErrors();
    } finally {
      await close();
    }
  });
});
