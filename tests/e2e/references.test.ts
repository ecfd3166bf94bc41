import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JS_MODES, launchBrowser, open, submitAndWait } from "@tests/support/browser";
import { bucketForm, contentIdOf, control, fieldBox, save, signedInContext, submitWith } from "@tests/support/content-browser";
import { createTestBucket } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";
import { createContent, getLatestVersion } from "@server/content/store";
import { createPublished } from "@tests/support/publishing";
import type { Bucket } from "@server/content/buckets";

/*
 * References in the browser, with JavaScript and without (spec §1, §2): the select of a small collection, the
 * combobox of a large one (over 200 documents: typed, keyboard, screen-reader names) and its search box without
 * JavaScript, the reference list (picker dialog with search, order, remove; Add intent and selects without
 * JavaScript), the delete confirmation naming the documents that refer to the one deleted, and the field that
 * then says the document was deleted.
 */

let server: TestServer;
let browser: Browser;
let counter = 0;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

interface Fixture {
  artists: Bucket;
  crowd: Bucket;
  shows: Bucket;
  ids: Record<string, string>;
  crowdIds: string[];
}

/** Artists (three, one with an image), a crowd of 230 documents and a bucket of shows that refers to both. */
async function fixture(crowdSize = 0): Promise<Fixture> {
  counter += 1;
  const stamp = `${counter}-${Date.now().toString(36)}`;
  const artists = await createTestBucket(server.db, {
    name: `Artists ${stamp}`,
    jsonSchema: {
      type: "object",
      properties: { name: { type: "string", title: "Name" }, portrait: { type: "string", _ref: "b-image", title: "Portrait" } },
    },
  });
  const crowd = await createTestBucket(server.db, { name: `Crowd ${stamp}` });
  const shows = await createTestBucket(server.db, {
    name: `Shows ${stamp}`,
    jsonSchema: {
      type: "object",
      properties: {
        title: { type: "string", title: "Title" },
        artist: { type: "string", title: "Artist", _ref: artists.collectionName },
        guest: { type: "string", title: "Guest", _ref: crowd.collectionName },
        lineup: { type: "array", title: "Line-up", items: { type: "string", _ref: artists.collectionName } },
      },
    },
  });
  const ids: Record<string, string> = {};
  // Mesdag and Israëls are published; Toorop is a draft, which a select's option says ("Charley Toorop (Draft)").
  for (const name of ["Hendrik Willem Mesdag", "Charley Toorop", "Jozef Israëls"]) {
    const make = name === "Charley Toorop" ? createContent : createPublished;
    ids[name] = (
      await make(
        server.db,
        artists.id,
        { name, ...(name === "Charley Toorop" ? { portrait: "0b6f4a3c-1d2e-4f50-8a6b-7c8d9e0f1a2b" } : {}) },
        null,
      )
    ).contentId;
  }
  const crowdIds: string[] = [];
  for (let index = 0; index < crowdSize; index += 1) {
    crowdIds.push((await createContent(server.db, crowd.id, { title: `Crowd member ${String(index).padStart(3, "0")}` }, null)).contentId);
  }
  return { artists, crowd, shows, ids, crowdIds };
}

async function stored(bucket: Bucket, contentId: string) {
  return (await getLatestVersion(server.db, bucket.id, contentId))?.data;
}

/** The titles of the reference list's entries, in order. */
const entries = (page: Page, name: string) =>
  fieldBox(page, name).locator(".reference-entry .reference-title, .reference-entry .reference-deleted").allTextContents();

describe.each(JS_MODES)("references $label", ({ javaScriptEnabled }) => {
  it("picks from a small collection's select and a large collection's search, and saves both", async () => {
    const { shows, ids, crowdIds } = await fixture(230);
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/b/${shows.slug}/new`);
    await control(page, "title").fill("Sea and sky");
    await control(page, "artist").selectOption({ label: "Charley Toorop (Draft)" });

    if (javaScriptEnabled) {
      const combobox = fieldBox(page, "guest").getByRole("combobox", { name: "Guest" });
      expect(await combobox.getAttribute("aria-expanded")).toBe("false");
      await combobox.fill("member 21");
      const listbox = fieldBox(page, "guest").getByRole("listbox");
      await listbox.getByRole("option", { name: "Crowd member 217" }).waitFor();
      expect(await combobox.getAttribute("aria-expanded")).toBe("true");
      await fieldBox(page, "guest").getByRole("status").filter({ hasText: "10 results" }).waitFor();
      // Down twice from the first result: the input names the active option; Enter picks it, the form is not sent.
      await combobox.press("ArrowDown");
      const active = await combobox.getAttribute("aria-activedescendant");
      expect(active).toBeTruthy();
      expect(await page.locator(`[id="${active}"]`).getAttribute("aria-selected")).toBe("true");
      const activeName = (await page.locator(`[id="${active}"] .reference-option-name > span`).first().textContent()) ?? "";
      expect(await page.locator(`[id="${active}"] .publication-badge`).textContent()).toBe("Draft");
      await combobox.press("Enter");
      expect(await combobox.getAttribute("aria-expanded")).toBe("false");
      expect(await combobox.inputValue()).toBe(activeName);
      expect(crowdIds).toContain(await control(page, "guest").inputValue());
      // Escape closes a list opened again and leaves the choice; a different text typed is undone by Escape.
      await combobox.fill("member 217");
      await listbox.getByRole("option", { name: "Crowd member 217" }).waitFor();
      await combobox.press("Escape");
      expect(await combobox.getAttribute("aria-expanded")).toBe("false");
      await combobox.press("Escape");
      expect(await combobox.inputValue()).toBe(activeName);
      // A click on an option picks it.
      await combobox.fill("member 217");
      await listbox.getByRole("option", { name: "Crowd member 217" }).click();
      expect(await control(page, "guest").inputValue()).toBe(crowdIds[217]);
    } else {
      // Without JavaScript: the first page in a select, a search box whose submit re-renders the options.
      expect(await control(page, "guest").locator("option").count()).toBeLessThanOrEqual(21);
      await fieldBox(page, "guest").getByRole("searchbox").fill("member 217");
      expect(await submitWith(page, fieldBox(page, "guest").getByRole("button", { name: "Search" }))).toBe(200);
      expect(await control(page, "title").inputValue()).toBe("Sea and sky");
      expect(await control(page, "artist").inputValue()).toBe(ids["Charley Toorop"]);
      await control(page, "guest").selectOption({ label: "Crowd member 217 (Draft)" });
    }
    expect(await save(page)).toBeLessThan(400);
    const contentId = contentIdOf(page);
    expect(await stored(shows, contentId)).toMatchObject({ title: "Sea and sky", artist: ids["Charley Toorop"], guest: crowdIds[217] });
    // Opened again, the chosen document's title shows (it is not in the first page).
    if (javaScriptEnabled) expect(await fieldBox(page, "guest").getByRole("combobox").inputValue()).toBe("Crowd member 217");
    else expect(await control(page, "guest").locator("option:checked").textContent()).toBe("Crowd member 217 (Draft)");
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("adds to a reference list (picker or Add row), sorts, removes, and links each entry", async () => {
    const { artists, shows, ids } = await fixture();
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/b/${shows.slug}/new`);
    const lineup = fieldBox(page, "lineup");
    await lineup.getByText("No entries").waitFor();
    const add = async (name: string) => {
      if (javaScriptEnabled) {
        await lineup.getByRole("button", { name: "Add", exact: true }).click();
        const dialog = page.getByRole("dialog", { name: "Add to Line-up" });
        await dialog.waitFor();
        await dialog.getByRole("searchbox").fill(name.split(" ").at(-1)!);
        await dialog.getByRole("status").filter({ hasText: "1 result" }).waitFor();
        await dialog.getByRole("button", { name: `Add: ${name}` }).click();
        await dialog.waitFor({ state: "hidden" });
      } else {
        await submitWith(page, lineup.getByRole("button", { name: "Add", exact: true }));
        const rows = await lineup.locator("select").count();
        await lineup
          .locator("select")
          .nth(rows - 1)
          .selectOption({ label: name === "Charley Toorop" ? `${name} (Draft)` : name });
      }
    };
    await add("Hendrik Willem Mesdag");
    await add("Charley Toorop");
    await add("Jozef Israëls");
    if (!javaScriptEnabled)
      await submitWith(
        page,
        lineup.getByRole("button", { name: "Move up: Jozef Israëls" }).or(lineup.getByRole("button", { name: "Move up: 3" })),
      );
    else await lineup.getByRole("button", { name: "Move up: Jozef Israëls" }).click();
    expect(await entries(page, "lineup")).toEqual(["Hendrik Willem Mesdag", "Jozef Israëls", "Charley Toorop"]);
    // Each entry links to its document; the one with an image shows it small.
    expect(await lineup.getByRole("link", { name: "Jozef Israëls" }).getAttribute("href")).toBe(
      `/b/${artists.slug}/${ids["Jozef Israëls"]}/latest`,
    );
    expect(await lineup.getByRole("img", { name: "Image of Charley Toorop" }).getAttribute("src")).toBe(
      "/api/v1/media/image/0b6f4a3c-1d2e-4f50-8a6b-7c8d9e0f1a2b",
    );
    const remove = lineup.getByRole("button", { name: "Remove: Hendrik Willem Mesdag" });
    if (javaScriptEnabled) await remove.click();
    else await submitWith(page, remove);
    expect(await entries(page, "lineup")).toEqual(["Jozef Israëls", "Charley Toorop"]);
    // With JavaScript an entry is also dragged into place.
    const order = javaScriptEnabled ? ["Charley Toorop", "Jozef Israëls"] : ["Jozef Israëls", "Charley Toorop"];
    if (javaScriptEnabled) await lineup.locator(".reference-row").nth(1).dragTo(lineup.locator(".reference-row").nth(0));
    expect(await entries(page, "lineup")).toEqual(order);
    await control(page, "title").fill("Line-up");
    expect(await save(page)).toBeLessThan(400);
    expect(await stored(shows, contentIdOf(page))).toMatchObject({ lineup: order.map((name) => ids[name]) });
    expect(await entries(page, "lineup")).toEqual(order);
    ctx.expectNoErrors();
    await ctx.close();
  });

  it("names the referring documents in the delete confirmation, and the references then say the document was deleted", async () => {
    const { artists, shows, ids } = await fixture();
    const target = ids["Jozef Israëls"]!;
    const one = await createContent(server.db, shows.id, { title: "Show one", artist: target }, null);
    const two = await createContent(server.db, shows.id, { title: "Show two", lineup: [ids["Charley Toorop"], target] }, null);
    const ctx = await signedInContext(browser, server, { javaScriptEnabled });
    const page = await ctx.newPage();
    await open(page, `/b/${artists.slug}`);
    await page
      .getByRole("row", { name: /Jozef Israëls/ })
      .getByRole("link", { name: "Delete" })
      .click();
    const dialog = page.getByRole("alertdialog", { name: "Delete document" });
    await dialog.getByText("This document is used in 2 other documents:").waitFor();
    expect(await dialog.getByRole("link", { name: "Show one" }).getAttribute("href")).toBe(`/b/${shows.slug}/${one.contentId}/latest`);
    expect(await dialog.getByRole("link", { name: "Show two" }).getAttribute("href")).toBe(`/b/${shows.slug}/${two.contentId}/latest`);
    await submitAndWait(page, dialog.getByRole("button", { name: "Delete" }));
    await page.getByRole("row", { name: /Jozef Israëls/ }).waitFor({ state: "detached" });

    await open(page, `/b/${shows.slug}/${one.contentId}/latest`);
    await fieldBox(page, "artist").locator("p.reference-deleted", { hasText: "This document was deleted" }).waitFor();
    expect(await control(page, "artist").inputValue()).toBe(target);
    await open(page, `/b/${shows.slug}/${two.contentId}/latest`);
    expect(await entries(page, "lineup")).toEqual(["Charley Toorop", "This document was deleted"]);
    // Saved untouched, the dangling value stays until the editor changes it.
    expect(await save(page)).toBeLessThan(400);
    expect(await stored(shows, two.contentId)).toMatchObject({ lineup: [ids["Charley Toorop"], target] });
    expect(await bucketForm(page).count()).toBe(1);
    ctx.expectNoErrors();
    await ctx.close();
  });
});
