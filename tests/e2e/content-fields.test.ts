import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JS_MODES, launchBrowser, open, textOf } from "@tests/support/browser";
import {
  bucketForm,
  contentIdOf,
  control,
  fieldBox,
  formValues,
  plainText,
  save,
  shownErrors,
  signedInContext,
  storedDocument,
  submitWith,
} from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";
import { createContent } from "@server/content/store";

/*
 * The generic form with every core field kind (spec §2 field UI, §3 value formats, §5 parsing and
 * initial rows): create, edit, duplicate, with JavaScript on and off. Every list button is a submit button with
 * an intent, so without JavaScript each one is a round trip through the action.
 */

let server: TestServer;
let browser: Browser;

export const EVERY_KIND_SCHEMA = {
  type: "object",
  required: ["name", "title"],
  properties: {
    name: { type: "string", title: "Name", placeholder: "Full name", maxLength: 10 },
    story: { type: "string", title: "Story", renderer: "textarea", maxLength: 40 },
    title: { type: "string", title: "Title", translate: true },
    price: { type: "number", title: "Price", step: 0.5, minimum: 0 },
    ratio: { type: "number", title: "Ratio" },
    capacity: { type: "integer", title: "Capacity", step: 5 },
    featured: { type: "boolean", title: "Featured" },
    opens: { type: "string", format: "date", title: "Opens" },
    at: { type: "string", format: "time", title: "At" },
    accent: { type: "string", format: "color", title: "Accent" },
    room: { type: "string", title: "Room", enum: ["east", "atrium"], labels: { east: "East wing", atrium: "Atrium" } },
    roomNames: { type: "array", title: "Room names", renderer: "tags", items: { type: "string" } },
    highlight: { type: "string", title: "Highlight", enum: { _data: "1/roomNames" } },
    rooms: {
      type: "array",
      title: "Rooms",
      sortable: true,
      "add-button": "Add room",
      "title-key": "name",
      minItems: 2,
      maxItems: 3,
      items: { type: "object", title: "Room", properties: { name: { type: "string", title: "Name" } } },
    },
    slots: {
      type: "array",
      title: "Slots",
      fixed: true,
      fixedItems: 2,
      "append-index-to-title": true,
      items: { type: "string", title: "Slot" },
    },
    notes: { type: "array", title: "Notes", items: { type: "string", title: "Note" } },
    contact: {
      type: "object",
      title: "Contact",
      "x-indent": true,
      "x-clearable": true,
      "x-collapsible": true,
      properties: { email: { type: "string", title: "Email" }, phone: { type: "string", title: "Phone" } },
    },
    banner: { type: "object", title: "Banner", "x-disableable-bool": true, enableButton: "Show banner", disableButton: "Hide banner" },
  },
};

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

/** Clicks a list/step button: with scripts Conform applies the intent in place, without it is a form post. */
async function press(page: Page, javaScriptEnabled: boolean, button: Locator) {
  if (javaScriptEnabled) await button.click();
  else expect(await submitWith(page, button)).toBe(200);
}

const stepButton = (page: Page, name: string, sign: "+" | "−") => fieldBox(page, name).locator(".step-button", { hasText: sign });

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  it("creates a document with every field kind, then shows the stored values on its latest version", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: EVERY_KIND_SCHEMA, locales: ["nl", "en"] });
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/new`);
    expect(await textOf(page.locator("h1"))).toBe("New document");

    // Initial values (spec §3, §5): time 00:00:00, a colour that is not required none, a list starts with minItems rows, a fixed list
    // with fixedItems rows, a tag list with no chips, any other list with one row; the switch is off; selects ask to 'Pick an option'.
    expect(await control(page, "at").inputValue()).toBe("00:00:00");
    expect(await textOf(fieldBox(page, "accent").locator(".color-none"))).toBe("No colour");
    expect(await bucketForm(page).locator('[name^="rooms["]').count()).toBe(2);
    expect(await bucketForm(page).locator('[name^="slots["]').count()).toBe(2);
    expect(await bucketForm(page).locator('[name^="notes["]').count()).toBe(1);
    expect(await bucketForm(page).locator('[name^="roomNames["]').count()).toBe(0); // tags: no chip until one is added
    expect(await textOf(fieldBox(page, "featured").locator(".switch-label"))).toBe("Inactive");
    expect(await plainText(control(page, "room").locator("option"))).toBe("Pick an option");
    expect(await control(page, "name").getAttribute("placeholder")).toBe("Full name");
    expect(await textOf(fieldBox(page, "name").locator(".counter"))).toBe("0/10");

    // Text with a counter.
    await control(page, "name").fill("Ada");
    await control(page, "story").fill("A story");
    if (javaScriptEnabled) expect(await textOf(fieldBox(page, "name").locator(".counter"))).toBe("3/10");

    // Translated text: one input per locale (tabs with scripts, all inputs without).
    await control(page, "title.nl").fill("Licht");
    if (javaScriptEnabled) {
      expect(await control(page, "title.en").isVisible()).toBe(false);
      await fieldBox(page, "title").getByRole("tab", { name: "EN" }).click();
    }
    await control(page, "title.en").fill("Light");

    // Number with a comma (spec §5): the comma becomes a dot.
    await control(page, "price").fill("12,5");
    // Integer: step 5.
    await control(page, "capacity").fill("7");

    // Boolean switch, date, time, colour, enum select with labels.
    await control(page, "featured").check();
    if (javaScriptEnabled) expect(await textOf(fieldBox(page, "featured").locator(".switch-label"))).toBe("Active");
    await control(page, "opens").fill("2026-09-12");
    await control(page, "at").fill("10:30:15");
    await press(page, javaScriptEnabled, fieldBox(page, "accent").getByRole("button", { name: "Choose colour" }));
    expect(await control(page, "accent").inputValue()).toBe("#000000");
    await control(page, "accent").fill("#336699");
    await control(page, "room").selectOption({ label: "East wing" });

    // Fixed list: no add or remove, the index appended to the row title.
    const slots = fieldBox(page, "slots");
    expect(await slots.locator("button").count()).toBe(0);
    expect(await slots.locator("label").allTextContents()).toEqual(["Slot 1", "Slot 2"]);
    await control(page, "slots[0]").fill("morning");
    await control(page, "slots[1]").fill("evening");

    // Disableable string.
    await control(page, "banner.value").fill("Welcome");
    expect(await textOf(fieldBox(page, "banner").locator("label.inline-check"))).toBe("Hide banner");
    await control(page, "banner.disabled").check();
    if (javaScriptEnabled) expect(await textOf(fieldBox(page, "banner").locator("label.inline-check"))).toBe("Show banner");

    // Collapsible, clearable object: 'Clear fields' (the English interface's 'Velden leegmaken') empties it.
    await control(page, "contact.email").fill("ada@example.test");
    await control(page, "contact.phone").fill("555");
    await fieldBox(page, "contact").locator("summary").click();
    expect(await control(page, "contact.email").isVisible()).toBe(false);
    await fieldBox(page, "contact").locator("summary").click();
    await press(page, javaScriptEnabled, fieldBox(page, "contact").getByRole("button", { name: "Clear fields" }));
    expect(await control(page, "contact.email").inputValue()).toBe("");
    expect(await control(page, "contact.phone").inputValue()).toBe("");
    await control(page, "contact.phone").fill("0612345678");

    // Everything typed so far survives the round trips of the buttons below.
    // Tag list: chips; a typed tag and '+ New Tag' add one (without scripts a round trip; a tag typed and not
    // added yet is added by the next post).
    const tagInput = fieldBox(page, "roomNames").getByRole("textbox", { name: "New tag for Room names" });
    expect(await fieldBox(page, "roomNames").locator(".tag-chip").count()).toBe(0);
    await tagInput.fill("Hall");
    await press(page, javaScriptEnabled, fieldBox(page, "roomNames").getByRole("button", { name: "+ New Tag" }));
    expect(await fieldBox(page, "roomNames").locator(".tag-text").allTextContents()).toEqual(["Hall"]);
    await fieldBox(page, "roomNames").getByRole("textbox", { name: "New tag for Room names" }).fill("Garden");
    if (javaScriptEnabled) await tagInput.press("Enter");

    // Enum from a $data pointer: the options are the tag list's values.
    if (javaScriptEnabled) {
      expect(await control(page, "highlight").locator("option").allTextContents()).toEqual(["Pick an option", "Hall", "Garden"]);
      await control(page, "highlight").selectOption("Garden");
    } else {
      // Without scripts the options are those of the last render: 'Hall' was there when '+ New Tag' posted.
      expect(await control(page, "highlight").locator("option").allTextContents()).toEqual(["Pick an option", "Hall"]);
      await control(page, "highlight").selectOption("Hall");
    }

    // List with add-button text, maxItems counter, remove and reorder buttons.
    const rooms = fieldBox(page, "rooms");
    expect(await textOf(rooms.locator(":scope > .counter"))).toBe("2/3");
    await control(page, "rooms[0].name").fill("A");
    await control(page, "rooms[1].name").fill("B");
    await press(page, javaScriptEnabled, rooms.getByRole("button", { name: "Add room" }));
    await control(page, "rooms[2].name").fill("C");
    expect(await textOf(rooms.locator(":scope > .counter"))).toBe("3/3");
    expect(await rooms.getByRole("button", { name: "Add room" }).count()).toBe(0); // maxItems reached
    await press(page, javaScriptEnabled, rooms.locator(".list-row").nth(0).getByRole("button", { name: "Remove" }));
    expect(await textOf(rooms.locator(":scope > .counter"))).toBe("2/3");
    await press(page, javaScriptEnabled, rooms.locator(".list-row").nth(1).getByRole("button", { name: "Move up" }));
    expect(await control(page, "rooms[0].name").inputValue()).toBe("C");
    expect(await control(page, "rooms[1].name").inputValue()).toBe("B");
    // title-key: a row is titled by its name.
    expect(await rooms.locator(".list-row legend").allTextContents()).toEqual(["C", "B"]);

    // Plain list with the default 'Add'.
    await control(page, "notes[0]").fill("first");
    await press(page, javaScriptEnabled, fieldBox(page, "notes").getByRole("button", { name: "Add", exact: true }));
    await control(page, "notes[1]").fill("second");

    // Plus and minus buttons: by the step, rounded to the step's decimals (0.1 + 0.1 + 0.1 is 0.3).
    await press(page, javaScriptEnabled, stepButton(page, "price", "+"));
    expect(await control(page, "price").inputValue()).toBe("13");
    for (let click = 0; click < 3; click++) await press(page, javaScriptEnabled, stepButton(page, "ratio", "+"));
    expect(await control(page, "ratio").inputValue()).toBe("0.3");
    await press(page, javaScriptEnabled, stepButton(page, "capacity", "+"));
    expect(await control(page, "capacity").inputValue()).toBe("12");

    // All earlier input is still there after the round trips.
    const kept = await formValues(page);
    expect(kept).toMatchObject({
      name: "Ada",
      "title.nl": "Licht",
      "title.en": "Light",
      featured: "on",
      opens: "2026-09-12",
      at: "10:30:15",
      accent: "#336699",
      room: "east",
      "slots[0]": "morning",
      "banner.value": "Welcome",
      "banner.disabled": "on",
      "contact.phone": "0612345678",
      "roomNames[0]": "Hall",
      "roomNames[1]": "Garden",
    });

    await save(page);
    expect(await textOf(page.locator(".notice-success"))).toBe("Saved");
    const contentId = contentIdOf(page);
    const stored = await storedDocument(server, ctx.cookie, bucket.slug, contentId);
    expect(stored.data).toEqual({
      name: "Ada",
      story: "A story",
      title: { nl: "Licht", en: "Light" },
      price: 13,
      ratio: 0.3,
      capacity: 12,
      featured: true,
      opens: "2026-09-12",
      at: "10:30:15",
      accent: "#336699",
      room: "east",
      roomNames: ["Hall", "Garden"],
      highlight: javaScriptEnabled ? "Garden" : "Hall",
      rooms: [{ name: "C" }, { name: "B" }],
      slots: ["morning", "evening"],
      notes: ["first", "second"],
      contact: { phone: "0612345678" },
      banner: { value: "Welcome", disabled: true },
    });

    // The latest version shows every stored value in its control.
    expect(await textOf(page.locator("h1"))).toBe("Edit Ada");
    expect(await formValues(page)).toMatchObject({
      name: "Ada",
      story: "A story",
      "title.nl": "Licht",
      "title.en": "Light",
      price: "13",
      ratio: "0.3",
      capacity: "12",
      featured: "on",
      opens: "2026-09-12",
      at: "10:30:15",
      accent: "#336699",
      room: "east",
      "roomNames[0]": "Hall",
      "roomNames[1]": "Garden",
      highlight: javaScriptEnabled ? "Garden" : "Hall",
      "rooms[0].name": "C",
      "rooms[1].name": "B",
      "slots[0]": "morning",
      "slots[1]": "evening",
      "notes[0]": "first",
      "notes[1]": "second",
      "contact.phone": "0612345678",
      "banner.value": "Welcome",
      "banner.disabled": "on",
    });
    expect(await textOf(fieldBox(page, "featured").locator(".switch-label"))).toBe("Active");
    expect(await textOf(fieldBox(page, "banner").locator("label.inline-check"))).toBe("Show banner");
    expect(await textOf(fieldBox(page, "name").locator(".counter"))).toBe("3/10");
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("edits a stored document into a new version, then duplicates it into a new document", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: EVERY_KIND_SCHEMA, locales: ["nl", "en"] });
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const original = await createContent(
      server.db,
      bucket.id,
      {
        name: "Mesdag",
        title: { nl: "Zee", en: "Sea" },
        capacity: 20,
        featured: true,
        opens: "2026-01-02",
        at: "09:15:00",
        accent: "#2f5d8a",
        room: "atrium",
        roomNames: ["Hall", "Garden"],
        highlight: "Garden",
        rooms: [{ name: "North" }, { name: "South" }],
        slots: ["a", "b"],
        notes: ["x"],
        contact: { email: "m@example.test" },
        banner: { value: "Hello", disabled: false },
      },
      ctx.user.id,
    );
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/${original.contentId}/latest`);
    expect(await textOf(page.locator("h1"))).toBe("Edit Mesdag");
    // Stored values come back in their controls, lists with their stored rows (not the initial ones).
    expect(await formValues(page)).toMatchObject({
      name: "Mesdag",
      "title.nl": "Zee",
      "title.en": "Sea",
      capacity: "20",
      featured: "on",
      opens: "2026-01-02",
      at: "09:15:00",
      accent: "#2f5d8a",
      room: "atrium",
      "roomNames[0]": "Hall",
      "roomNames[1]": "Garden",
      highlight: "Garden",
      "rooms[0].name": "North",
      "rooms[1].name": "South",
      "notes[0]": "x",
      "contact.email": "m@example.test",
      "banner.value": "Hello",
    });
    expect(await bucketForm(page).locator('[name^="notes["]').count()).toBe(1);
    expect(await control(page, "highlight").locator("option").allTextContents()).toEqual(["Pick an option", "Hall", "Garden"]);
    expect(await textOf(fieldBox(page, "featured").locator(".switch-label"))).toBe("Active");

    await control(page, "name").fill("Mesdag II");
    await control(page, "featured").uncheck();
    if (javaScriptEnabled) expect(await textOf(fieldBox(page, "featured").locator(".switch-label"))).toBe("Inactive");
    await press(page, javaScriptEnabled, fieldBox(page, "notes").locator(".list-row").nth(0).getByRole("button", { name: "Remove" }));
    expect(await bucketForm(page).locator('[name^="notes["]').count()).toBe(0);
    await press(page, javaScriptEnabled, fieldBox(page, "rooms").locator(".list-row").nth(0).getByRole("button", { name: "Move down" }));
    await save(page);
    expect(await textOf(page.locator(".notice-success"))).toBe("Saved");
    expect(contentIdOf(page)).toBe(original.contentId);
    const edited = await storedDocument(server, ctx.cookie, bucket.slug, original.contentId);
    expect(edited.versionId).not.toBe(original.versionId);
    expect(edited.data).toMatchObject({ name: "Mesdag II", featured: false, rooms: [{ name: "South" }, { name: "North" }], capacity: 20 });
    expect(edited.data.notes ?? []).toEqual([]); // the removed row is gone (a list without rows is left out)

    // Duplicate: the copied data in a form for a new document; saving makes a new contentId, the original stays.
    await open(page, `/b/${bucket.slug}/duplicate/${original.contentId}/latest`);
    expect(await textOf(page.locator("h1"))).toBe("New document");
    // The title field says it is a copy, in the editor's language (issue 36).
    expect(await control(page, "name").inputValue()).toBe("Mesdag II (copy)");
    expect(await control(page, "__contentId").inputValue()).toBe("");
    await control(page, "name").fill("Copy");
    await save(page);
    expect(await textOf(page.locator(".notice-success"))).toBe("Saved");
    const copyId = contentIdOf(page);
    expect(copyId).not.toBe(original.contentId);
    const copy = await storedDocument(server, ctx.cookie, bucket.slug, copyId);
    expect(copy.data).toEqual({ ...edited.data, name: "Copy" });
    expect((await storedDocument(server, ctx.cookie, bucket.slug, original.contentId)).data.name).toBe("Mesdag II");
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("parses numbers as spec §5 says: comma or dot, plus and minus from the typed value, integers by their step", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: EVERY_KIND_SCHEMA, locales: ["nl", "en"] });
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/new`);
    // The buttons step from what is typed, not from what the page showed when it loaded.
    await control(page, "price").fill("2,25");
    await press(page, javaScriptEnabled, stepButton(page, "price", "+"));
    expect(await control(page, "price").inputValue()).toBe("2.8"); // 2.25 + 0.5 rounded to one decimal
    await control(page, "capacity").fill("-3");
    await press(page, javaScriptEnabled, stepButton(page, "capacity", "−"));
    expect(await control(page, "capacity").inputValue()).toBe("-8");
    await press(page, javaScriptEnabled, stepButton(page, "ratio", "−"));
    expect(await control(page, "ratio").inputValue()).toBe("-0.1");
    await control(page, "ratio").fill("");
    await control(page, "name").fill("Numbers");
    await control(page, "title.nl").fill("Getallen");
    if (javaScriptEnabled) await fieldBox(page, "title").getByRole("tab", { name: "EN" }).click();
    await control(page, "title.en").fill("Numbers");
    await control(page, "rooms[0].name").fill("A"); // minItems 2: empty rows are no items
    await control(page, "rooms[1].name").fill("B");
    expect(await formValues(page)).toMatchObject({ price: "2.8", capacity: "-8", ratio: "" });
    await save(page);
    expect(await shownErrors(page)).toEqual({});
    expect(await textOf(page.locator(".notice-success"))).toBe("Saved");
    const stored = await storedDocument(server, ctx.cookie, bucket.slug, contentIdOf(page));
    expect(stored.data).toMatchObject({ price: 2.8, capacity: -8 });
    expect(stored.data).not.toHaveProperty("ratio"); // empty clears
    ctx.expectNoErrors();
    await ctx.close();
  });
});

describe("with JavaScript only", () => {
  it("reverts invalid number input to the last valid value and empties on empty input", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: EVERY_KIND_SCHEMA, locales: ["nl", "en"] });
    const ctx = await signedInContext(browser, server);
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/new`);
    const capacity = control(page, "capacity");
    await capacity.fill("15");
    await capacity.blur();
    await capacity.fill("1.5"); // not an integer
    await capacity.blur();
    expect(await capacity.inputValue()).toBe("15");
    await capacity.fill("abc");
    await capacity.blur();
    expect(await capacity.inputValue()).toBe("15");
    const price = control(page, "price");
    await price.fill("3,75");
    await price.blur();
    expect(await price.inputValue()).toBe("3.75");
    await price.fill("3,7,5");
    await price.blur();
    expect(await price.inputValue()).toBe("3.75");
    await price.fill("");
    await price.blur();
    expect(await price.inputValue()).toBe("");
    // After a revert the buttons step from the restored value.
    await capacity.fill("x");
    await capacity.blur();
    await stepButton(page, "capacity", "+").click();
    expect(await capacity.inputValue()).toBe("20");
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("counts characters live and warns past maxLength; follows the pointed list in a $data select; reorders by dragging", async () => {
    const bucket = await createTestBucket(server.db, { jsonSchema: EVERY_KIND_SCHEMA, locales: ["nl", "en"] });
    const ctx = await signedInContext(browser, server);
    const page = await ctx.newPage();
    await open(page, `/b/${bucket.slug}/new`);
    const counter = fieldBox(page, "name").locator(".counter");
    await control(page, "name").fill("Ada Lovelace");
    expect(await textOf(counter)).toBe("12/10");
    expect(await counter.getAttribute("class")).toContain("counter-exceeded");
    await control(page, "name").fill("Ada");
    expect(await textOf(counter)).toBe("3/10");
    expect(await counter.getAttribute("class")).not.toContain("counter-exceeded");
    const storyCounter = fieldBox(page, "story").locator(".counter");
    await control(page, "story").pressSequentially("abc");
    expect(await textOf(storyCounter)).toBe("3/40");

    // The $data select follows the tag list as it changes: chips added (Enter, a comma, a pasted list), removed
    // (their ×, Backspace in the empty input).
    const highlight = control(page, "highlight");
    const options = () => highlight.locator("option").allTextContents();
    const tags = fieldBox(page, "roomNames");
    const chips = () => tags.locator(".tag-text").allTextContents();
    const tagInput = tags.getByRole("textbox", { name: "New tag for Room names" });
    await tagInput.fill("Hall");
    await tagInput.press("Enter");
    await tagInput.pressSequentially("Garden,");
    await expect.poll(chips).toEqual(["Hall", "Garden"]);
    expect(await tagInput.inputValue()).toBe("");
    await expect.poll(options).toEqual(["Pick an option", "Hall", "Garden"]);
    await tags.getByRole("button", { name: "Remove tag Hall" }).click();
    await expect.poll(options).toEqual(["Pick an option", "Garden"]);
    await tagInput.press("Backspace");
    await expect.poll(chips).toEqual([]);
    await expect.poll(options).toEqual(["Pick an option"]);
    await tagInput.fill("Foyer, Atrium");
    await expect.poll(chips).toEqual(["Foyer"]);
    await tagInput.blur(); // leaving the input adds what was typed
    await expect.poll(chips).toEqual(["Foyer", "Atrium"]);
    expect(await formValues(page)).toMatchObject({ "roomNames[0]": "Foyer", "roomNames[1]": "Atrium" });

    // Sortable rows are draggable; dropping one on another moves it there.
    await control(page, "rooms[0].name").fill("First");
    await control(page, "rooms[1].name").fill("Second");
    const rows = fieldBox(page, "rooms").locator(".list-row");
    expect(await rows.first().getAttribute("draggable")).toBe("true");
    expect(await fieldBox(page, "slots").locator(".list-row").first().getAttribute("draggable")).toBe("false");
    await rows.nth(1).dragTo(rows.nth(0));
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('[name="rooms[0].name"]')?.value === "Second");
    expect(await control(page, "rooms[1].name").inputValue()).toBe("First");
    expect(await fieldBox(page, "rooms").locator(".list-row legend").allTextContents()).toEqual(["Second", "First"]);
    ctx.expectNoErrors();
    await ctx.close();
  });
});
