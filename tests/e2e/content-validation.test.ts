import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JS_MODES, launchBrowser, open, textOf, waitForHydration, withJsModesInTurn } from "@tests/support/browser";
import {
  contentIdOf,
  control,
  countPosts,
  fieldBox,
  formValues,
  save,
  shownErrors,
  signedInContext,
  storedDocument,
  submitWith,
  waitForFieldError,
} from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * Validation (spec §5): every error under its field in red, the input kept; without JavaScript the server
 * answers 400 with the messages, with JavaScript the bucket's precompiled validator runs before submit and no
 * request is sent while the form is invalid. Labels and messages are in the user's interface language (the top-bar
 * switch, else Accept-Language, else DEFAULT_LOCALE), so a page never mixes two languages.
 */

let english: TestServer;
let dutch: TestServer;
let browser: Browser;

const SCHEMA = {
  type: "object",
  required: ["name", "title", "rooms"],
  properties: {
    name: { type: "string", title: "Name", maxLength: 10, isNotEmpty: true },
    title: { type: "string", title: "Title", translate: true },
    price: { type: "number", title: "Price", minimum: 0 },
    room: { type: "string", title: "Room", enum: ["east", "west"] },
    rooms: {
      type: "array",
      title: "Rooms",
      minItems: 2,
      items: { type: "object", title: "Room", required: ["name"], properties: { name: { type: "string", title: "Name" } } },
    },
    tags: { type: "array", title: "Tags", renderer: "tags", items: { type: "string" } },
    featured: { type: "boolean", title: "Featured" },
    contact: { type: "object", title: "Contact", "x-clearable": true, properties: { phone: { type: "string", title: "Phone" } } },
  },
};

beforeAll(async () => {
  [english, dutch, browser] = await Promise.all([startTestServer(), startTestServer({ env: { DEFAULT_LOCALE: "nl" } }), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await Promise.all([english.stop(), dutch.stop()]);
});

const LANGUAGES = [
  {
    label: "English (DEFAULT_LOCALE en, browser en-US)",
    server: () => english,
    browserLocale: "en-US",
    text: {
      newDocument: "New document",
      save: "Save",
      saved: "Saved",
      required: "This field is required",
      minimum: "This value should be at least 0",
      minItems: "This list should have minimum 2 item(s)",
      tooLong: "This text can't be longer than 10 characters",
      formInvalid: "Some fields need attention before this can be saved.",
      pick: "Pick an option",
      newTag: "+ New Tag",
      clear: "Clear fields",
      inactive: "Inactive",
    },
  },
  {
    label: "Dutch (DEFAULT_LOCALE nl, browser nl-NL)",
    server: () => dutch,
    browserLocale: "nl-NL",
    text: {
      newDocument: "Nieuw document",
      save: "Opslaan",
      saved: "Opgeslagen",
      required: "Dit is een verplicht veld",
      minimum: "Deze waarde moet minstens 0 zijn",
      minItems: "Er moeten minstens 2 items in deze lijst zitten",
      tooLong: "Deze tekst mag niet langer zijn dan 10 tekens",
      formInvalid: "Sommige velden moeten nog worden aangepast voordat je kunt opslaan.",
      pick: "Kies een optie",
      newTag: "+ Nieuwe tag",
      clear: "Velden leegmaken",
      inactive: "Inactief",
    },
  },
] as const;

/** Shows the EN input of the translated title (a tab with scripts; always shown without). */
async function showLocale(page: Page, javaScriptEnabled: boolean, locale: string) {
  if (javaScriptEnabled) await fieldBox(page, "title").getByRole("tab", { name: locale.toUpperCase() }).click();
}

// English with JavaScript, Dutch without: each language's messages and each mode's form once.
describe.each(withJsModesInTurn(LANGUAGES))("$label", ({ server, browserLocale, text, jsModes }) => {
  describe.each(jsModes)("$label", ({ javaScriptEnabled }) => {
    it("shows every error under its field with the input kept, then saves once the input is fixed", async () => {
      const bucket = await createTestBucket(server().db, { jsonSchema: SCHEMA, locales: ["nl", "en"] });
      const ctx = await signedInContext(browser, server(), { javaScriptEnabled, locale: browserLocale });
      const page = await ctx.newPage();
      await open(page, `/b/${bucket.slug}/new`);
      // Labels in the user's language.
      expect(await textOf(page.locator("h1"))).toBe(text.newDocument);
      expect(await control(page, "room").locator("option").first().textContent()).toBe(text.pick);
      expect(await textOf(fieldBox(page, "tags").locator("button.add"))).toBe(text.newTag);
      expect(await textOf(fieldBox(page, "contact").locator("button"))).toBe(text.clear);
      expect(await textOf(fieldBox(page, "featured").locator(".switch-label"))).toBe(text.inactive);

      await control(page, "name").fill("   ");
      await control(page, "title.nl").fill("Zee");
      await control(page, "price").fill("-1");
      await control(page, "rooms[0].name").fill("A");
      // A typed tag: with scripts Enter makes it a chip; without, the post adds it.
      await fieldBox(page, "tags").locator(".tag-input").fill("kept");
      if (javaScriptEnabled) await fieldBox(page, "tags").locator(".tag-input").press("Enter");
      const posts = countPosts(page);
      if (javaScriptEnabled) {
        await page.getByRole("button", { name: text.save, exact: true }).click();
        await waitForFieldError(page, "rooms", text.minItems);
        expect(posts.count).toBe(0); // the browser's validator refused: nothing was sent
      } else {
        expect(await save(page)).toBe(400);
      }
      expect(await shownErrors(page)).toEqual({
        form: text.formInvalid,
        name: text.required, // isNotEmpty: spaces only
        "title.en": text.required, // translated and required: every locale is
        price: text.minimum,
        rooms: text.minItems, // the empty second row is no item
      });
      // The input is kept.
      expect(await formValues(page)).toMatchObject({
        name: "   ",
        "title.nl": "Zee",
        "title.en": "",
        price: "-1",
        "rooms[0].name": "A",
        "tags[0]": "kept",
      });
      expect(await control(page, "title.en").getAttribute("aria-invalid")).toBe("true");
      if (javaScriptEnabled) {
        // The locale tabs say which locale has errors.
        expect(await fieldBox(page, "title").getByRole("tab", { name: "EN" }).getAttribute("class")).toContain("has-error");
        expect(await fieldBox(page, "title").getByRole("tab", { name: "NL" }).getAttribute("class")).not.toContain("has-error");
        // After a failed validation the validator runs on every input: fixing a field clears its message.
        await control(page, "name").fill("Ada Lovelace!");
        await waitForFieldError(page, "name", text.tooLong);
        await control(page, "name").fill("Ada");
        await page.waitForFunction(() => !document.querySelector('[data-field="name"] > .field-error'));
        expect(posts.count).toBe(0);
      } else {
        await control(page, "name").fill("Ada");
      }
      await showLocale(page, javaScriptEnabled, "en");
      await control(page, "title.en").fill("Sea");
      if (javaScriptEnabled) {
        await page.waitForFunction(() => !document.querySelector(".locale-tab.has-error"));
      }
      await control(page, "price").fill("0");
      await control(page, "rooms[1].name").fill("B");
      await save(page);
      expect(await shownErrors(page)).toEqual({});
      expect(await textOf(page.locator(".notice-success"))).toBe(text.saved);
      const stored = await storedDocument(server(), ctx.cookie, bucket.slug, contentIdOf(page));
      expect(stored.data).toEqual({
        name: "Ada",
        title: { nl: "Zee", en: "Sea" },
        price: 0,
        rooms: [{ name: "A" }, { name: "B" }],
        tags: ["kept"],
        featured: false,
      });
      ctx.expectNoErrors();
      await ctx.close();
    });
  });
});

describe.each(JS_MODES)("the top-bar language switch ($label)", ({ javaScriptEnabled }) => {
  it("turns the form's labels and its validation messages Dutch on an English server", async () => {
    const bucket = await createTestBucket(english.db, { jsonSchema: SCHEMA, locales: ["nl", "en"] });
    const ctx = await signedInContext(browser, english, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/new`);
    expect(await textOf(page.locator("h1"))).toBe("New document");
    await Promise.all([
      page.waitForURL((url) => url.pathname === `/b/${bucket.slug}/new`),
      page.locator("header .language-switch button").click(),
    ]);
    await waitForHydration(page);
    await page.locator("h1", { hasText: "Nieuw document" }).waitFor();
    expect(await page.locator("html").getAttribute("lang")).toBe("nl");
    expect(await textOf(fieldBox(page, "tags").locator("button.add"))).toBe("+ Nieuwe tag");
    expect(await control(page, "room").locator("option").first().textContent()).toBe("Kies een optie");
    expect(await textOf(fieldBox(page, "contact").locator("button"))).toBe("Velden leegmaken");
    expect(await textOf(fieldBox(page, "featured").locator(".switch-label"))).toBe("Inactief");
    expect(await textOf(page.locator(".form-actions button"))).toBe("Opslaan");
    if (javaScriptEnabled) {
      await page.getByRole("button", { name: "Opslaan", exact: true }).click();
      await waitForFieldError(page, "rooms", "Er moeten minstens 2 items in deze lijst zitten");
    } else {
      expect(await submitWith(page, page.getByRole("button", { name: "Opslaan", exact: true }))).toBe(400);
    }
    expect(await shownErrors(page)).toMatchObject({
      form: "Sommige velden moeten nog worden aangepast voordat je kunt opslaan.",
      name: "Dit is een verplicht veld",
      rooms: "Er moeten minstens 2 items in deze lijst zitten",
    });
    ctx.expectNoErrors();
    await ctx.close();
  });
});

describe.each(JS_MODES)("an English interface on a Dutch server ($label)", ({ javaScriptEnabled }) => {
  it("shows labels and validation messages in English, none in the default locale's Dutch", async () => {
    const bucket = await createTestBucket(dutch.db, { jsonSchema: SCHEMA, locales: ["nl", "en"] });
    const ctx = await signedInContext(browser, dutch, { javaScriptEnabled, locale: "en-US" });
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/new`);
    expect(await page.locator("html").getAttribute("lang")).toBe("en");
    expect(await textOf(page.locator("h1"))).toBe("New document");
    expect(await textOf(fieldBox(page, "contact").locator("button"))).toBe("Clear fields");
    expect(await textOf(fieldBox(page, "featured").locator(".switch-label"))).toBe("Inactive");
    await control(page, "price").fill("-1");
    if (javaScriptEnabled) {
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await waitForFieldError(page, "rooms", "This list should have minimum 2 item(s)");
    } else {
      expect(await save(page)).toBe(400);
    }
    expect(await shownErrors(page)).toMatchObject({
      form: "Some fields need attention before this can be saved.",
      name: "This field is required",
      price: "This value should be at least 0",
      rooms: "This list should have minimum 2 item(s)",
    });
    expect(await page.locator("main").innerText()).not.toMatch(/verplicht|Er moeten|Velden|Inactief|Opslaan/);
    ctx.expectNoErrors();
    await ctx.close();
  });
});
