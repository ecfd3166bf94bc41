import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, open, textOf, withJsModesInTurn } from "@tests/support/browser";
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
  waitForFieldError,
} from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { postJson } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * Issue 36, items 1 and 12: a select of a number or integer enum saves the enum's number (it could never be saved
 * from the form: 'This field is required Pick one of the options' under a select with a value), a document whose
 * enum was set through the JSON API opens, saves and changes; an integer typed as "7.5" goes back to the last
 * value with a note that says why (spec §5), or, without JavaScript, is refused by the server with the input kept.
 */

let server: TestServer;
let browser: Browser;

const SCHEMA = {
  type: "object",
  required: ["name", "size", "floor"],
  properties: {
    name: { type: "string", title: "Name" },
    size: { type: "number", title: "Size", enum: [1, 2.5, 3] },
    floor: { type: "integer", title: "Floor", enum: [0, 1, 2], labels: { 0: "Ground floor", 1: "First floor", 2: "Second floor" } },
    seats: { type: "integer", title: "Seats" },
  },
};

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

const LANGUAGES = [
  {
    label: "English",
    browserLocale: "en-US",
    text: {
      saved: "Saved",
      notWhole: "“7.5” is not a whole number",
      reverted: "“7.5” is not a whole number: back to the last valid value, 12.",
    },
  },
  {
    label: "Dutch",
    browserLocale: "nl-NL",
    text: {
      saved: "Opgeslagen",
      notWhole: "“7.5” is geen geheel getal",
      reverted: "“7.5” is geen geheel getal: terug naar de laatste geldige waarde, 12.",
    },
  },
] as const;

/** The option a select shows as chosen: its value and its text. */
const chosen = (page: Page, name: string) =>
  control(page, name).evaluate((select: HTMLSelectElement) => ({
    value: select.value,
    text: select.selectedOptions[0]?.textContent ?? "",
  }));

// English with JavaScript, Dutch without: each language's messages and each mode's form once.
describe.each(withJsModesInTurn(LANGUAGES))("$label", ({ browserLocale, text, jsModes }) => {
  describe.each(jsModes)("$label", ({ javaScriptEnabled }) => {
    it("saves the option picked in a number and an integer enum as the enum's numbers, and shows them chosen", async () => {
      const bucket = await createTestBucket(server.db, { jsonSchema: SCHEMA });
      const ctx = await signedInContext(browser, server, { javaScriptEnabled, locale: browserLocale });
      const page = await ctx.newPage();
      await open(page, `/b/${bucket.slug}/new`);
      await control(page, "name").fill("Hall");
      await control(page, "size").selectOption("2.5");
      await control(page, "floor").selectOption({ label: "Ground floor" });
      await save(page);
      expect(await shownErrors(page)).toEqual({});
      expect(await textOf(page.locator(".notice-success"))).toBe(text.saved);
      const stored = await storedDocument(server, ctx.cookie, bucket.slug, contentIdOf(page));
      expect(stored.data).toEqual({ name: "Hall", size: 2.5, floor: 0 });
      // The saved document's page shows the stored numbers as the chosen options.
      await open(page, `/b/${bucket.slug}/${contentIdOf(page)}/latest`);
      expect(await chosen(page, "size")).toEqual({ value: "2.5", text: "2.5" });
      expect(await chosen(page, "floor")).toEqual({ value: "0", text: "Ground floor" });
      ctx.expectNoErrors();
      await ctx.close();
    });

    it("opens a document whose numeric enums were set through the JSON API, saves it unchanged, then changes them", async () => {
      const bucket = await createTestBucket(server.db, { jsonSchema: SCHEMA });
      const ctx = await signedInContext(browser, server, { javaScriptEnabled, locale: browserLocale });
      const created = await postJson(
        server.url,
        `/api/v1/buckets/${bucket.slug}/save`,
        { content: { name: "Atrium", size: 3, floor: 2 } },
        ctx.cookie,
      );
      expect(created.status).toBe(201);
      const { contentId, _id: firstVersion } = (await created.json()) as { contentId: string; _id: string };
      const page = await ctx.newPage();
      await open(page, `/b/${bucket.slug}/${contentId}/latest`);
      expect(await shownErrors(page)).toEqual({});
      expect(await chosen(page, "size")).toEqual({ value: "3", text: "3" });
      expect(await chosen(page, "floor")).toEqual({ value: "2", text: "Second floor" });

      await save(page);
      expect(await shownErrors(page)).toEqual({});
      const again = await storedDocument(server, ctx.cookie, bucket.slug, contentId);
      expect(again.versionId).not.toBe(firstVersion);
      expect(again.data).toEqual({ name: "Atrium", size: 3, floor: 2 });

      await control(page, "size").selectOption("1");
      await control(page, "floor").selectOption({ label: "First floor" });
      await save(page);
      expect(await shownErrors(page)).toEqual({});
      expect((await storedDocument(server, ctx.cookie, bucket.slug, contentId)).data).toEqual({ name: "Atrium", size: 1, floor: 1 });
      expect(await chosen(page, "size")).toEqual({ value: "1", text: "1" });
      ctx.expectNoErrors();
      await ctx.close();
    });
  });

  it("with JavaScript, puts an integer typed as 7.5 back to its last value and says why, next to the field", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: SCHEMA });
    const ctx = await signedInContext(browser, server, { locale: browserLocale });
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/new`);
    const seats = control(page, "seats");
    const note = fieldBox(page, "seats").locator(".number-reverted");
    // The last value came from the + button, not from typing: the field goes back to it all the same.
    for (let press = 0; press < 12; press++) await fieldBox(page, "seats").locator(".step-button", { hasText: "+" }).click();
    await expect.poll(() => seats.inputValue()).toBe("12");
    await seats.fill("7.5");
    await seats.blur();
    expect(await seats.inputValue()).toBe("12");
    expect(await note.textContent()).toBe(text.reverted);
    expect(await note.getAttribute("role")).toBe("status");
    // Typing again takes the note away; a valid value stays.
    await seats.fill("30");
    expect(await note.textContent()).toBe("");
    await seats.blur();
    expect(await seats.inputValue()).toBe("30");
    expect(await note.textContent()).toBe("");
    // Without a last value the field empties, and says so.
    await seats.fill("");
    await seats.blur();
    await seats.fill("abc");
    await seats.blur();
    expect(await seats.inputValue()).toBe("");
    expect(await note.textContent()).toMatch(
      /^“abc” (is not a whole number: the field is empty again\.|is geen geheel getal: het veld is weer leeg\.)$/,
    );
    // Saved with Enter while the text is still in the field: the form does not post, and says what is wrong with it.
    await control(page, "name").fill("Hall");
    await control(page, "size").selectOption("1");
    await control(page, "floor").selectOption("1");
    await seats.fill("7.5");
    const posts = countPosts(page);
    await seats.press("Enter");
    await waitForFieldError(page, "seats", text.notWhole);
    expect(await shownErrors(page)).toMatchObject({ seats: text.notWhole });
    expect(posts.count).toBe(0);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("without JavaScript, refuses an integer typed as 7.5 with a message under it and the input kept", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: SCHEMA });
    const ctx = await signedInContext(browser, server, { javaScriptEnabled: false, locale: browserLocale });
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/new`);
    await control(page, "name").fill("Hall");
    await control(page, "size").selectOption("1");
    await control(page, "floor").selectOption("1");
    await control(page, "seats").fill("7.5");
    expect(await save(page)).toBe(400);
    const errors = await shownErrors(page);
    expect(errors.seats).toBe(text.notWhole); // one message, not also 'This field is required'
    expect(await formValues(page)).toMatchObject({ name: "Hall", size: "1", floor: "1", seats: "7.5" });
    await control(page, "seats").fill("7");
    await save(page);
    expect(await shownErrors(page)).toEqual({});
    expect((await storedDocument(server, ctx.cookie, bucket.slug, contentIdOf(page))).data).toEqual({
      name: "Hall",
      size: 1,
      floor: 1,
      seats: 7,
    });
    ctx.expectNoErrors();
    await ctx.close();
  });
});
