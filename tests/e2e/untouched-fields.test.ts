import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JS_MODES, launchBrowser, open, textOf } from "@tests/support/browser";
import {
  bucketForm,
  contentIdOf,
  control,
  fieldBox,
  save,
  shownErrors,
  signedInContext,
  storedDocument,
  submitWith,
  waitForFieldError,
} from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";
import { createContent } from "@server/content/store";

/*
 * What nobody touched stays out of the document (issue 36 items 5, 6, 7), with JavaScript on and off: a list's
 * untouched row is a spare row whatever its switches show, a colour that is not required is empty until chosen and
 * can be cleared again, and a property's default is what a new document starts with.
 */

let server: TestServer;
let browser: Browser;

const SCHEMA = {
  type: "object",
  required: ["title", "main"],
  properties: {
    title: { type: "string", title: "Title" },
    main: { type: "string", format: "color", title: "Main colour" },
    accent: { type: "string", format: "color", title: "Accent" },
    rooms: {
      type: "array",
      title: "Rooms",
      "add-button": "Add room",
      items: {
        type: "object",
        title: "Room",
        required: ["name"],
        properties: {
          name: { type: "string", title: "Name" },
          open: { type: "boolean", title: "Open" },
          lit: { type: "boolean", title: "Lit", default: true },
        },
      },
    },
    seats: { type: "integer", title: "Seats", default: 40 },
    room: { type: "string", title: "Room", enum: ["east", "atrium"], default: "atrium" },
  },
};

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

/** Clicks an intent button: with scripts Conform applies it in place, without it is a form post. */
async function press(page: Page, javaScriptEnabled: boolean, button: Locator) {
  if (javaScriptEnabled) await button.click();
  else expect(await submitWith(page, button)).toBe(200);
}

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  it("saves a new document whose list row nobody touched, and starts with the schema's defaults", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: SCHEMA });
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/new`);
    // The defaults (item 7): the integer, the select, and the row's switch that starts on.
    expect(await control(page, "seats").inputValue()).toBe("40");
    expect(await control(page, "room").inputValue()).toBe("atrium");
    expect(await control(page, "rooms[0].lit").isChecked()).toBe(true);
    expect(await control(page, "rooms[0].open").isChecked()).toBe(false);

    await control(page, "title").fill("Untouched rooms");
    await save(page);
    expect(await shownErrors(page)).toEqual({});
    expect(await textOf(page.locator(".notice-success"))).toBe("Saved");
    const stored = await storedDocument(server, ctx.cookie, bucket.slug, contentIdOf(page));
    expect(stored.data).toEqual({ title: "Untouched rooms", main: "#000000", seats: 40, room: "atrium", rooms: [] });
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("still asks for a row's required fields once one of its switches is turned, and keeps a filled row", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: SCHEMA });
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/new`);
    await control(page, "title").fill("Touched rooms");
    await control(page, "rooms[0].open").check();
    // With scripts the form's own check stops the post; without, the action answers with the errors.
    if (javaScriptEnabled) await bucketForm(page).locator(".form-actions button[type=submit]").click();
    else expect(await save(page)).toBe(400);
    await waitForFieldError(page, "rooms[0].name", "This field is required");
    await control(page, "rooms[0].name").fill("Hall");
    await press(page, javaScriptEnabled, fieldBox(page, "rooms").getByRole("button", { name: "Add room" }));
    // The added row starts as the first did: its default switch on; left untouched, it is not saved.
    expect(await control(page, "rooms[1].lit").isChecked()).toBe(true);
    await save(page);
    expect(await textOf(page.locator(".notice-success"))).toBe("Saved");
    const stored = await storedDocument(server, ctx.cookie, bucket.slug, contentIdOf(page));
    expect(stored.data.rooms).toEqual([{ name: "Hall", open: true, lit: true }]);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("keeps a colour that is not required empty until chosen, and clears it again", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: SCHEMA });
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const original = await createContent(server.db, bucket.id, { title: "Plain", main: "#112233" }, ctx.user.id);
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/${original.contentId}/latest`);
    // The required colour shows its picker, without a way to clear it; the other says it has none.
    expect(await control(page, "main").inputValue()).toBe("#112233");
    expect(await fieldBox(page, "main").getByRole("button").count()).toBe(0);
    expect(await control(page, "accent").count()).toBe(0);
    expect(await textOf(fieldBox(page, "accent").locator(".color-none"))).toBe("No colour");

    // Editing anything else saves no colour.
    await control(page, "title").fill("Plain II");
    await save(page);
    expect(await textOf(page.locator(".notice-success"))).toBe("Saved");
    expect((await storedDocument(server, ctx.cookie, bucket.slug, original.contentId)).data).toEqual({
      title: "Plain II",
      main: "#112233",
    });

    // Choose: the picker at #000000 (spec §3), then the picked colour is saved.
    await press(page, javaScriptEnabled, fieldBox(page, "accent").getByRole("button", { name: "Choose colour" }));
    expect(await control(page, "accent").inputValue()).toBe("#000000");
    await control(page, "accent").fill("#336699");
    await save(page);
    expect(await textOf(page.locator(".notice-success"))).toBe("Saved");
    expect((await storedDocument(server, ctx.cookie, bucket.slug, original.contentId)).data.accent).toBe("#336699");

    // Clear: no colour again, also in the stored document.
    expect(await control(page, "accent").inputValue()).toBe("#336699");
    await press(page, javaScriptEnabled, fieldBox(page, "accent").getByRole("button", { name: "Clear colour" }));
    expect(await control(page, "accent").count()).toBe(0);
    await save(page);
    expect(await textOf(page.locator(".notice-success"))).toBe("Saved");
    expect((await storedDocument(server, ctx.cookie, bucket.slug, original.contentId)).data).toEqual({
      title: "Plain II",
      main: "#112233",
    });

    // A duplicate adds no colour either.
    await open(page, `/b/${bucket.slug}/duplicate/${original.contentId}/latest`);
    expect(await bucketForm(page).locator('[name="accent"]').count()).toBe(0);
    await control(page, "title").fill("Copy");
    await save(page);
    expect(await textOf(page.locator(".notice-success"))).toBe("Saved");
    expect((await storedDocument(server, ctx.cookie, bucket.slug, contentIdOf(page))).data).toEqual({ title: "Copy", main: "#112233" });
    ctx.expectNoErrors();
    await ctx.close();
  });
});
