import type { Browser, Page, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickTo, expectTextSoon, launchBrowser, newContext, open, signInTo, submitAndWait } from "@tests/support/browser";
import { catalogues } from "@core/catalogues";
import { createTestBucket } from "@tests/support/fixtures";
import { createTestUser } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * What the browser loads (issue 15): the messages of the page's language only (the other when the editor
 * switches); the dialogs' code when one opens, not with the page; a field kind's code with a form that has one, and
 * the media fields' messages (the catalogue's media part) with a form that has a media field.
 */

const EN_INTRO = "Choose a bucket to manage its content.";
const NL_INTRO = "Kies een bucket om de content te beheren.";
/** A message of the catalogue's admin part: the webhooks page's introduction. */
const EN_ADMIN = catalogues.en!.webhooks.intro;
/** Message keys only the dialogs' code names: the crop modal, the thumbnail dialog, the reference picker. */
const DIALOG_MARKS = ["media.cropResize", "media.useThisStill", "references.pickTitle"];
/** Message keys only one on-demand field kind's code names (app/components/form/on-demand-fields.tsx). */
const FIELD_MARKS = { media: "media.uploadButton", reference: "references.searchButton", tags: "form.tagInput", cases: "cases.chosen" };

/** The media part of each language, told apart by a message its drop zone shows once hydrated. */
const DROP_HERE = { en: catalogues.en!.media.dropHere, nl: catalogues.nl!.media.dropHere };
const dropHereText = (language: "en" | "nl") => DROP_HERE[language].replace("{{type}}", catalogues[language]!.media.types.image);

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await createTestBucket(server.db, { slug: "code-loaded", name: "Code loaded" });
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

/** Every script and JSON asset the page fetches from now on, with its text. */
function recordAssets(page: Page): Map<string, Promise<string>> {
  const assets = new Map<string, Promise<string>>();
  page.on("response", (response: Response) => {
    const url = new URL(response.url());
    if (!url.pathname.startsWith("/assets/") || !/\.(js|json)$/.test(url.pathname)) return;
    const text = response.text();
    // Read by texts(), where a failure fails the test; one still arriving when the page closes is never read.
    text.catch(() => undefined);
    assets.set(url.pathname, text);
  });
  return assets;
}

async function texts(assets: Map<string, Promise<string>>): Promise<Array<[string, string]>> {
  return Promise.all([...assets].map(async ([path, text]) => [path, await text] as [string, string]));
}

describe("the code an editor's browser loads", () => {
  it("brings the messages of the page's language only, and the other language's when the editor switches", async () => {
    const user = await createTestUser(server.db);
    const ctx = await newContext(browser, server.url, { javaScriptEnabled: true });
    const page = await ctx.newPage();
    const assets = recordAssets(page);
    await signInTo(page, user.email, user.password);
    await expectTextSoon(page.locator("main p"), EN_INTRO);

    const english = await texts(assets);
    // The catalogue's common part and the pages part that the sign-in and home pages ask for.
    expect(english.filter(([path]) => path.endsWith(".json"))).toHaveLength(2);
    // The catalogue's admin part (settings, profile…) is not among them (core/catalogue-parts.ts).
    expect(english.filter(([, text]) => text.includes(EN_ADMIN)).map(([path]) => path)).toEqual([]);
    expect(english.some(([, text]) => text.includes(EN_INTRO))).toBe(true);
    expect(english.filter(([, text]) => text.includes(NL_INTRO)).map(([path]) => path)).toEqual([]);

    assets.clear();
    await submitAndWait(page, page.locator("header").getByRole("button", { name: /Nederlands$/ }));
    await expectTextSoon(page.locator("main p"), NL_INTRO);
    const dutch = await texts(assets);
    expect(dutch.filter(([path, text]) => path.endsWith(".json") && text.includes(NL_INTRO))).toHaveLength(1);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("loads no dialog's code with an edit page", async () => {
    const bucket = await createTestBucket(server.db);
    const user = await createTestUser(server.db);
    const ctx = await newContext(browser, server.url, { javaScriptEnabled: true });
    const page = await ctx.newPage();
    await signInTo(page, user.email, user.password);
    const assets = recordAssets(page);
    await open(page, `/b/${bucket.slug}/new`);
    await page.getByLabel("Title").fill("Typed after hydration");
    await page.waitForLoadState("networkidle");
    const loaded = (await texts(assets)).filter(([path]) => path.endsWith(".js"));
    expect(loaded.length).toBeGreaterThan(0);
    expect(loaded.filter(([, text]) => DIALOG_MARKS.some((mark) => text.includes(mark))).map(([path]) => path)).toEqual([]);
    // No zod either: the share panel's check loads when the panel is opened (app/components/share/share-validation.ts).
    expect(loaded.filter(([, text]) => text.includes("_zod")).map(([path]) => path)).toEqual([]);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("brings a field kind's code with a form that has such a field, preloaded by the page's head, and not with any other", async () => {
    const textOnly = await createTestBucket(server.db);
    const withMedia = await createTestBucket(server.db, {
      jsonSchema: {
        type: "object",
        properties: {
          title: { type: "string", title: "Title" },
          picture: { type: "string", title: "Picture", _ref: "b-image" },
          tags: { type: "array", title: "Tags", renderer: "tags", items: { type: "string" } },
        },
      },
    });
    const user = await createTestUser(server.db);
    const ctx = await newContext(browser, server.url, { javaScriptEnabled: true });
    const page = await ctx.newPage();
    await signInTo(page, user.email, user.password);
    const marked = (loaded: Array<[string, string]>) =>
      Object.entries(FIELD_MARKS)
        .filter(([, mark]) => loaded.some(([path, text]) => path.endsWith(".js") && text.includes(mark)))
        .map(([kind]) => kind);

    const assets = recordAssets(page);
    await open(page, `/b/${textOnly.slug}/new`);
    await page.getByLabel("Title").fill("Typed after hydration");
    await page.waitForLoadState("networkidle");
    expect(marked(await texts(assets))).toEqual([]);

    assets.clear();
    const response = await open(page, `/b/${withMedia.slug}/new`);
    const html = (await response?.text()) ?? "";
    const tags = page.locator('[data-field="tags"]');
    await tags.getByRole("textbox", { name: "New tag for Tags" }).fill("grey");
    await tags.getByRole("button", { name: "+ New Tag" }).click();
    await expect.poll(() => tags.locator(".tag-text").allTextContents()).toEqual(["grey"]);
    await page.waitForLoadState("networkidle");
    const loaded = await texts(assets);
    expect(marked(loaded)).toEqual(["media", "tags"]);
    // The head preloads the chunks, so the browser fetches them with the page's own rather than after hydration asks.
    const preloaded = new Set([...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map(([, href]) => href));
    const fieldChunks = loaded
      .filter(([, text]) => text.includes(FIELD_MARKS.media) || text.includes(FIELD_MARKS.tags))
      .map(([path]) => path);
    expect(fieldChunks.filter((path) => !preloaded.has(path))).toEqual([]);
    await page.getByLabel("Picture").waitFor();
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("brings the media fields' messages with a form that has one, loaded or navigated to, in each language, and not with any other", async () => {
    const textOnly = await createTestBucket(server.db);
    const withMedia = await createTestBucket(server.db, {
      jsonSchema: {
        type: "object",
        properties: { title: { type: "string", title: "Title" }, picture: { type: "string", title: "Picture", _ref: "b-image" } },
      },
    });
    const user = await createTestUser(server.db);
    const ctx = await newContext(browser, server.url, { javaScriptEnabled: true });
    const page = await ctx.newPage();
    await signInTo(page, user.email, user.password);
    const mediaParts = async (assets: Map<string, Promise<string>>) =>
      (await texts(assets))
        .filter(([path]) => path.endsWith(".json"))
        .flatMap(([, text]) =>
          Object.entries(DROP_HERE)
            .filter(([, message]) => text.includes(JSON.stringify(message)))
            .map(([language]) => language),
        );
    const dropHere = (language: "en" | "nl") =>
      page.locator('[data-field="picture"]').getByText(dropHereText(language), { exact: true }).waitFor();

    const assets = recordAssets(page);
    await open(page, `/b/${textOnly.slug}/new`);
    await page.getByLabel("Title").fill("Typed after hydration");
    await page.waitForLoadState("networkidle");
    expect(await mediaParts(assets)).toEqual([]);

    // A client navigation to a form with an image field: the field's code and messages come then, side by side.
    await open(page, `/b/${withMedia.slug}`);
    await clickTo(
      page,
      page.locator("main").getByRole("link", { name: catalogues.en!.overview.new, exact: true }),
      `/b/${withMedia.slug}/new`,
    );
    await dropHere("en");
    expect(await mediaParts(assets)).toEqual(["en"]);

    // The editor switches language on that form: the Dutch media messages come with the Dutch common ones.
    assets.clear();
    await submitAndWait(page, page.locator("header").getByRole("button", { name: /Nederlands$/ }));
    await dropHere("nl");
    expect(await mediaParts(assets)).toEqual(["nl"]);

    // Loaded whole, the page's head preloads the part, and the browser fetches it once.
    assets.clear();
    const response = await open(page, `/b/${withMedia.slug}/new`);
    const html = (await response?.text()) ?? "";
    await dropHere("nl");
    await page.waitForLoadState("networkidle");
    expect(await mediaParts(assets)).toEqual(["nl"]);
    const preloads = [...html.matchAll(/<link rel="preload" href="([^"]+)" as="fetch"/g)].map(([, href]) => href);
    expect(preloads.filter((href) => [...assets.keys()].includes(href!) && href!.includes("media"))).toHaveLength(1);
    expect(await page.locator("main").innerText()).not.toMatch(/\bmedia\.[a-z]/);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("fetches the admin part of the messages when an admin goes to the settings in the page", async () => {
    const user = await createTestUser(server.db, { permissions: ["user", "admin"] });
    const ctx = await newContext(browser, server.url, { javaScriptEnabled: true });
    const page = await ctx.newPage();
    await signInTo(page, user.email, user.password);
    await expectTextSoon(page.locator("main p"), EN_INTRO);
    const assets = recordAssets(page);
    await page.locator("header details.user-menu summary").click();
    await page.locator("header").getByRole("menuitem", { name: catalogues.en!.nav.settings }).click();
    await expectTextSoon(page.locator("main h1"), catalogues.en!.settings.title);
    expect(page.url()).toMatch(/\/settings$/);
    const fetched = (await texts(assets)).filter(([path]) => path.endsWith(".json"));
    expect(fetched.filter(([, text]) => text.includes(EN_ADMIN))).toHaveLength(1);
    ctx.expectNoErrors();
    await ctx.close();
  });
});
