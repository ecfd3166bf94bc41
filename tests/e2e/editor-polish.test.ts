import type { Browser, Dialog, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JS_MODES, launchBrowser, open, pathOf, textOf, waitForPath } from "@tests/support/browser";
import {
  bucketForm,
  control,
  fieldBox,
  formValues,
  save,
  settle,
  signedInContext,
  storedDocument,
  submitWith,
  contentIdOf,
} from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";
import { createContent, getLatestVersion } from "@server/content/store";

/*
 * An editor that feels finished: leaving with unsaved changes asks first (the confirm dialog for in-app navigation,
 * the browser's question on reload or close), a short confirmation after save and after delete, a singleton's
 * heading names its bucket, tags are chips (JavaScript on and off).
 */

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

const SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", title: "Name" },
    tags: { type: "array", title: "Tags", renderer: "tags", items: { type: "string" } },
  },
};

const leaveDialog = (page: Page) => page.getByRole("alertdialog", { name: "Leave without saving?" });
/** The eyebrow link of the edit page: back to the bucket's overview (an in-app navigation). */
const overviewLink = (page: Page, name: string) => page.locator("main .eyebrow").getByRole("link", { name });

describe("leaving with unsaved changes (JavaScript)", () => {
  it("asks in the confirm dialog before a link leaves a changed form: Stay keeps the input, Leave goes", async () => {
    const bucket = await createTestBucket(server.db, { name: "Artworks", jsonSchema: SCHEMA });
    const doc = await createContent(server.db, bucket.id, { name: "Nachtwacht" }, null);
    const ctx = await signedInContext(browser, server);
    const page = await ctx.newPage();
    const here = `/b/${bucket.slug}/${doc.contentId}/latest`;

    // Unchanged: the link just goes.
    await open(page, here);
    await overviewLink(page, "Artworks").click();
    await waitForPath(page, `/b/${bucket.slug}`);
    await settle(page);

    await open(page, here);
    await control(page, "name").fill("Night Watch");
    await overviewLink(page, "Artworks").click();
    const dialog = leaveDialog(page);
    await dialog.waitFor({ state: "visible" });
    expect(await textOf(dialog.locator("p"))).toBe("This page has changes that are not saved yet. If you leave now, they are lost.");
    // The focus is in the dialog, on the safe choice; Escape stays too.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Stay on this page");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(pathOf(page)).toBe(here);

    await overviewLink(page, "Artworks").click();
    await dialog.getByRole("button", { name: "Stay on this page" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(pathOf(page)).toBe(here);
    expect(await control(page, "name").inputValue()).toBe("Night Watch");

    // The language switch leaves the page too (a post elsewhere): it asks as well.
    await page.locator("header .language-switch button").click();
    await dialog.waitFor({ state: "visible" });
    await dialog.getByRole("button", { name: "Stay on this page" }).click();
    await dialog.waitFor({ state: "detached" });

    // Undoing the change undoes the question.
    await control(page, "name").fill("Nachtwacht");
    await overviewLink(page, "Artworks").click();
    await waitForPath(page, `/b/${bucket.slug}`);
    await settle(page);

    await open(page, here);
    await control(page, "name").fill("Night Watch");
    await overviewLink(page, "Artworks").click();
    await dialog.getByRole("button", { name: "Leave without saving" }).click();
    await waitForPath(page, `/b/${bucket.slug}`);
    await settle(page);
    expect((await storedDocument(server, ctx.cookie, bucket.slug, doc.contentId)).data).toEqual({ name: "Nachtwacht" });
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("on the popup's parent page: asks once the modal's saved document is the field's new value; all in the interface language", async () => {
    const artists = await createTestBucket(server.db, {
      name: "Artists",
      jsonSchema: { type: "object", required: ["name"], properties: { name: { type: "string", title: "Name", isNotEmpty: true } } },
    });
    const works = await createTestBucket(server.db, {
      name: "Works",
      jsonSchema: {
        type: "object",
        properties: { artist: { type: "string", title: "Artist", _ref: artists.collectionName, renderer: "popup" } },
      },
    });
    // A Dutch interface on an English server: the modal's validation messages are Dutch like the rest.
    const ctx = await signedInContext(browser, server, { locale: "nl-NL" });
    const page = await ctx.newPage();
    await open(page, `/b/${works.slug}/new`);
    const modal = page.locator("dialog.bucket-form-modal");
    await fieldBox(page, "artist").getByRole("button", { name: "Artist bewerken" }).click();
    await modal.waitFor({ state: "visible" });
    await modal.getByRole("button", { name: "Versturen" }).click();
    await modal.locator(".field-error", { hasText: "Dit is een verplicht veld" }).waitFor();
    await modal.locator('input[name="name"]').fill("Mesdag");
    await modal.getByRole("button", { name: "Versturen" }).click();
    await modal.waitFor({ state: "hidden" });
    await fieldBox(page, "artist").locator(".popup-current", { hasText: "Mesdag" }).waitFor();

    await overviewLink(page, "Works").click();
    const dialog = page.getByRole("alertdialog", { name: "Weggaan zonder op te slaan?" });
    await dialog.waitFor({ state: "visible" });
    await dialog.getByRole("button", { name: "Op deze pagina blijven" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(pathOf(page)).toBe(`/b/${works.slug}/new`);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("never asks on save, nor after it: the saved page leaves freely", async () => {
    const bucket = await createTestBucket(server.db, { name: "Artists", jsonSchema: SCHEMA });
    const ctx = await signedInContext(browser, server);
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/new`);
    await control(page, "name").fill("Rembrandt");
    await fieldBox(page, "tags").locator(".tag-input").fill("painter");
    await fieldBox(page, "tags").locator(".tag-input").press("Enter");
    await save(page);
    expect(await leaveDialog(page).count()).toBe(0);
    expect(pathOf(page)).toMatch(/\/latest\?saved$/);
    await overviewLink(page, "Artists").click();
    await waitForPath(page, `/b/${bucket.slug}`);
    expect(await leaveDialog(page).count()).toBe(0);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("asks the browser's question on reload and on closing the tab, only while the form has changes", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: SCHEMA });
    const ctx = await signedInContext(browser, server);
    const page = await ctx.newPage();
    const asked: string[] = [];
    let answer: "accept" | "dismiss" = "dismiss";
    page.on("dialog", (dialog: Dialog) => {
      asked.push(dialog.type());
      void (answer === "accept" ? dialog.accept() : dialog.dismiss());
    });
    await open(page, `/b/${bucket.slug}/new`);

    // Unchanged: a reload asks nothing.
    await page.reload();
    await settle(page);
    expect(asked).toEqual([]);

    await control(page, "name").fill("Vermeer");
    // Dismissed: the reload is cancelled, the input stays.
    await page.reload({ timeout: 3_000 }).catch(() => undefined);
    await expect.poll(() => asked).toEqual(["beforeunload"]);
    expect(await control(page, "name").inputValue()).toBe("Vermeer");

    // Closing the tab asks too; accepted, it closes.
    answer = "accept";
    const closed = new Promise((resolve) => page.once("close", resolve));
    await page.close({ runBeforeUnload: true });
    await closed;
    expect(asked).toEqual(["beforeunload", "beforeunload"]);
    ctx.expectNoErrors();
    await ctx.close();
  });
});

describe.each(JS_MODES)("short confirmations ($label)", ({ javaScriptEnabled }) => {
  it("says 'Saved' after a save (a status message; with JavaScript it can be closed and fades by itself)", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: SCHEMA });
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/new`);
    await control(page, "name").fill("Hals");
    await save(page);
    const notice = page.getByRole("status").filter({ hasText: "Saved" });
    expect(await textOf(notice)).toBe("Saved");
    if (javaScriptEnabled) {
      await notice.getByRole("button", { name: "Dismiss" }).click();
      await notice.waitFor({ state: "detached" });
      // Shown again (a reload of ?saved), it fades out by itself after a few seconds.
      await page.reload();
      await settle(page);
      await notice.waitFor({ state: "visible" });
      await notice.waitFor({ state: "detached", timeout: 15_000 });
    } else {
      expect(await notice.getByRole("button").count()).toBe(0);
    }
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("says 'Document deleted' on the overview after a delete", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: SCHEMA });
    const doomed = await createContent(server.db, bucket.id, { name: "Doomed" }, null);
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}`);
    expect(await page.getByRole("status").filter({ hasText: "Document deleted" }).count()).toBe(0);
    const row = page.locator("tr", { hasText: "Doomed" });
    await row.getByRole("link", { name: "Delete" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Delete document" });
    await dialog.waitFor({ state: "visible" });
    const status = await submitWith(page, dialog.getByRole("button", { name: "Delete" }));
    if (!javaScriptEnabled) expect(status).toBe(302); // the redirect to the overview that says so
    expect(await textOf(page.getByRole("status").filter({ hasText: "Document deleted" }))).toBe("Document deleted");
    expect(await page.locator("tr", { hasText: "Doomed" }).count()).toBe(0);
    expect(await getLatestVersion(server.db, bucket.id, doomed.contentId)).toBeNull();
    ctx.expectNoErrors();
    await ctx.close();
  });
});

describe.each(JS_MODES)("a singleton and tag chips ($label)", ({ javaScriptEnabled }) => {
  it("heads a singleton's page with the bucket's name, not its first text, in the heading and the title", async () => {
    const bucket = await createTestBucket(server.db, { name: "Home page", singleton: true, jsonSchema: SCHEMA });
    await createContent(server.db, bucket.id, { name: "Welcome to the museum" }, null, { singleton: true });
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/edit`);
    expect(await textOf(page.locator("main h1"))).toBe("Home page");
    expect(await page.title()).toBe("Home page · Vitrine");
    expect(await control(page, "name").inputValue()).toBe("Welcome to the museum");
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("shows tags as chips: '+ New Tag' adds the typed tag, a chip's × removes it, the input is kept, and saves", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: SCHEMA });
    const doc = await createContent(server.db, bucket.id, { name: "Zee", tags: ["blue", "green"] }, null);
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/${doc.contentId}/latest`);
    const tags = fieldBox(page, "tags");
    const chips = () => tags.locator(".tag-text").allTextContents();
    expect(await chips()).toEqual(["blue", "green"]);
    // No input labelled 'Tags 1', 'Tags 2': one input, for a new tag.
    expect(await tags.getByRole("textbox").count()).toBe(1);
    expect(await tags.getByLabel(/Tags \d/).count()).toBe(0);

    const press = async (button: ReturnType<Page["locator"]>) => {
      if (javaScriptEnabled) await button.click();
      else expect(await submitWith(page, button)).toBe(200);
    };
    await control(page, "name").fill("Zee en lucht");
    await tags.getByRole("textbox", { name: "New tag for Tags" }).fill("grey");
    await press(tags.getByRole("button", { name: "+ New Tag" }));
    await expect.poll(chips).toEqual(["blue", "green", "grey"]);
    await press(tags.getByRole("button", { name: "Remove tag blue" }));
    await expect.poll(chips).toEqual(["green", "grey"]);
    // What was typed elsewhere survives the round trips.
    expect(await control(page, "name").inputValue()).toBe("Zee en lucht");
    expect(await formValues(page)).toMatchObject({ "tags[0]": "green", "tags[1]": "grey" });
    // A tag typed but not added yet is saved with the rest.
    await tags.getByRole("textbox", { name: "New tag for Tags" }).fill("white");
    if (javaScriptEnabled) await tags.getByRole("textbox", { name: "New tag for Tags" }).press(",");
    await save(page);
    expect(contentIdOf(page)).toBe(doc.contentId);
    expect((await storedDocument(server, ctx.cookie, bucket.slug, doc.contentId)).data).toEqual({
      name: "Zee en lucht",
      tags: ["green", "grey", "white"],
    });
    expect(await bucketForm(page).locator(".tag-text").allTextContents()).toEqual(["green", "grey", "white"]);
    ctx.expectNoErrors();
    await ctx.close();
  });
});
